/* truth.c: ground-truth accumulation and files. Exposed comm is summed from
 * how each collective was placed (timeline.c), not from an interval union:
 * the self-check does the union, so the two methods check each other. */
#include "truth.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

/* The step's iterations, from each kernel's iteration number. */
static void add_iterations(struct truth *t, const struct step *s)
{
	size_t i, base = t->nit;
	int32_t most = -1;

	for (i = 0; i < s->n; i++)
		most = s->k[i].iter > most ? s->k[i].iter : most;
	if (most < 0 || t->nit + (size_t)most + 1 > TRUTH_MAX_ITERS)
		return;
	xgrow(&t->it, &t->capit, t->nit + (size_t)most + 1, sizeof(*t->it));
	for (i = 0; i <= (size_t)most; i++) {
		struct titer *x = &t->it[base + i];
		memset(x, 0, sizeof(*x));
		x->step = s->number;
		x->index = (int)i;
		x->start = INT64_MAX;
		x->end = INT64_MIN;
	}
	t->nit += (size_t)most + 1;
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		struct titer *x;
		if (k->iter < 0)
			continue;
		x = &t->it[base + (size_t)k->iter];
		x->kernels++;
		x->start = k->start < x->start ? k->start : x->start;
		x->end =
		    k->start + k->dur > x->end ? k->start + k->dur : x->end;
	}
}

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
		if (c == CAT_COMM) {
			a->exposed += k->dur - k->covered;
			t->sync_wait += k->sync_wait;
		}
	}
	t->kernels += s->n;
	t->steps++;
	add_iterations(t, s);
}

void truth_add_markers(struct truth *t, const struct launch *l)
{
	xgrow(&t->mk, &t->capmk, t->nmk + l->nmk + 1, sizeof(*t->mk));
	memcpy(t->mk + t->nmk, l->mk, l->nmk * sizeof(*t->mk));
	t->nmk += l->nmk;
}

void truth_free(struct truth *t)
{
	free(t->mk);
	t->mk = NULL;
	free(t->it);
	t->it = NULL;
	t->nit = t->capit = 0;
	t->nmk = t->capmk = 0;
}

int64_t truth_compute_time(const struct truth *t)
{
	int64_t sum = 0;
	int s;

	for (s = 0; s < ST_COUNT; s++)
		sum += t->st[s].time - t->st[s].cat_time[CAT_COMM];
	return sum;
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

static void write_markers(FILE *fp, const struct truth *t)
{
	size_t i;

	fputs(",\n \"markers\": [", fp);
	for (i = 0; i < t->nmk; i++) {
		const struct marker *mk = &t->mk[i];

		fprintf(
		    fp,
		    "%s\n  {\"name\": \"%s\", \"stage\": \"%s\", \"step\": %d, "
		    "\"host_start_us\": ",
		    i ? "," : "", launch_marker_name(mk->stage),
		    STAGE_NAMES[mk->stage], mk->step);
		truth_print_us(fp, mk->host_start);
		fputs(", \"host_end_us\": ", fp);
		truth_print_us(fp, mk->host_end);
		fputs(", \"device_start_us\": ", fp);
		truth_print_us(fp, mk->dev_start);
		fputs(", \"device_end_us\": ", fp);
		truth_print_us(fp, mk->dev_end);
		fputc('}', fp);
	}
	fputs("]", fp);
}

/* The loop of each step: its iterations and which hit the cache. */
static void write_iterations(FILE *fp, const struct truth *t)
{
	static const char *const kinds[] = {"none", "dit", "attention"};
	int i, first = 1;
	size_t j;

	fprintf(fp,
	        ",\n \"iterations\": {\"per_step\": %d, \"cache\": \"%s\", "
	        "\"period\": %d, \"hits_per_step\": [",
	        t->iters, kinds[t->cache], t->cache ? t->cache_period : 0);
	for (i = 0; t->cache && i < t->iters; i++) {
		if (i % t->cache_period == 0)
			continue;
		fprintf(fp, "%s%d", first ? "" : ", ", i);
		first = 0;
	}
	fputs("],\n  \"list\": [", fp);
	for (j = 0; j < t->nit; j++) {
		const struct titer *x = &t->it[j];
		fprintf(fp,
		        "%s\n   {\"step\": %d, \"index\": %d, \"kernels\": "
		        "%" PRIu64 ", \"start_us\": ",
		        j ? "," : "", x->step, x->index, x->kernels);
		truth_print_us(fp, x->start);
		fputs(", \"duration_us\": ", fp);
		truth_print_us(fp, x->end - x->start);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

int truth_write_json(const char *path, const struct truth *t, int rank)
{
	FILE *fp = fopen(path, "wb");
	int s, bad;

	if (!fp)
		return -1;
	fprintf(fp,
	        "{\"rank\": %d, \"workload\": {\"kind\": \"%s\", \"part\": "
	        "\"%s\"}, \"kernels\": %" PRIu64
	        ", \"steps\": %d, \"straggler\": %s, \"denoiser\": \"%s\", "
	        "\"compute_time_us\": ",
	        rank, WORKLOAD_KINDS[t->workload], WORKLOAD_PARTS[t->workload],
	        t->kernels, t->steps, t->straggler ? "true" : "false",
	        t->unet ? "UNet" : "DiT");
	truth_print_us(fp, truth_compute_time(t));
	fputs(", \"comm_sync_wait_us\": ", fp);
	truth_print_us(fp, t->sync_wait);
	fputs(", \"stages\": {", fp);
	for (s = 0; s < ST_COUNT; s++) {
		fprintf(fp, "%s\n  \"%s\": ", s ? "," : "", STAGE_NAMES[s]);
		write_stage(fp, &t->st[s]);
	}
	fputs("\n }", fp);
	write_iterations(fp, t);
	write_markers(fp, t);
	if (t->memory)
		fprintf(fp,
		        ",\n \"memory\": {\"peak_allocated_b\": %lld, "
		        "\"peak_reserved_b\": %lld, \"peak_device_b\": %lld}",
		        (long long)t->mem.allocated_b,
		        (long long)t->mem.reserved_b,
		        (long long)t->mem.device_b);
	fputs("}\n", fp);
	bad = ferror(fp);
	if (fclose(fp) != 0 || bad)
		return -1;
	return 0;
}
