/* truth.c: ground-truth accumulation and files. Exposed comm is summed from
 * how each collective was placed (timeline.c), not from an interval union:
 * the self-check does the union, so the two methods check each other. */
#include "truth.h"

#include <inttypes.h>
#include <stdio.h>

#include "banned.h"

void truth_add_step(struct truth *t, const struct model *m,
                    const struct step *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		const struct tmpl *tp = &m->t[k->tmpl];
		struct stage_acc *a = &t->st[tp->stage];
		enum cat c = tp->op->cat;

		a->kernels++;
		a->time += k->dur;
		a->count[c]++;
		a->cat_time[c] += k->dur;
		if (c == CAT_COMM)
			a->exposed += k->dur - k->covered;
	}
	t->kernels += s->n;
	t->steps++;
}

void truth_csv_header(struct outbuf *ob)
{
	ob_str(ob, "stage,category\n");
}

void truth_csv_step(struct outbuf *ob, const struct model *m,
                    const struct step *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct tmpl *tp = &m->t[s->k[i].tmpl];
		ob_str(ob, STAGE_NAMES[tp->stage]);
		ob_ch(ob, ',');
		ob_str(ob, CAT_NAMES[tp->op->cat]);
		ob_ch(ob, '\n');
	}
}

void truth_print_us(FILE *fp, int64_t ns)
{
	fprintf(fp, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

static void write_stage(FILE *fp, const struct stage_acc *a)
{
	int c;

	fprintf(fp,
	        "{\"kernels\": %" PRIu64 ", \"kernel_time_us\": ", a->kernels);
	truth_print_us(fp, a->time);
	fputs(", \"categories\": {", fp);
	for (c = 0; c < CAT_COUNT; c++) {
		fprintf(fp, "%s\"%s\": {\"count\": %" PRIu64 ", \"time_us\": ",
		        c ? ", " : "", CAT_NAMES[c], a->count[c]);
		truth_print_us(fp, a->cat_time[c]);
		fputc('}', fp);
	}
	fputs("}, \"comm_time_us\": ", fp);
	truth_print_us(fp, a->cat_time[CAT_COMM]);
	fputs(", \"exposed_comm_us\": ", fp);
	truth_print_us(fp, a->exposed);
	fputc('}', fp);
}

int truth_write_json(const char *path, const struct truth *t, int rank)
{
	FILE *fp = fopen(path, "wb");
	int s, bad;

	if (!fp)
		return -1;
	fprintf(fp,
	        "{\"rank\": %d, \"kernels\": %" PRIu64
	        ", \"steps\": %d, \"stages\": {",
	        rank, t->kernels, t->steps);
	for (s = 0; s < ST_COUNT; s++) {
		fprintf(fp, "%s\n  \"%s\": ", s ? "," : "", STAGE_NAMES[s]);
		write_stage(fp, &t->st[s]);
	}
	fputs("\n}}\n", fp);
	bad = ferror(fp);
	if (fclose(fp) != 0 || bad)
		return -1;
	return 0;
}
