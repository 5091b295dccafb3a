/* libFuzzer target: summaries merged as sdperf report merges them, then
 * shown. The input is one or two summaries (split at the first NUL byte;
 * without one, the same summary is given twice): they are written to two
 * files and merged by summaries_analyse (the reader, the checked counts,
 * the duplicate check, the second reading and cluster_merge), then the
 * merged result goes through the view model's parts that show it (the
 * summary, the ranks, memory, the iterations' table and the scatter of
 * view/svg.c) and report.json. Nothing may crash,
 * overflow (UBSan stops the run), leak or abort; a refusal is an input
 * error with a message. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "app/cli.h"
#include "app/summaries.h"
#include "format/json/json.h"
#include "tmpl/template.h"
#include "util/strbuf.h"
#include "view/i18n.h"
#include "view/model.h"
#include "view/model_iters.h"
#include "view/model_memory.h"
#include "view/model_ranks.h"
#include "view/model_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rules ru;
static struct catalog *cat;
static char dir[64];
static char file_a[96], file_b[96];

static void cleanup(void)
{
	unlink(file_a);
	unlink(file_b);
	rmdir(dir);
}

static void setup(void)
{
	struct err e = ERR_INIT;

	if (rules_load_builtin(&ru, &e) || i18n_load("en", &cat, &e))
		abort();
	snprintf(dir, sizeof(dir), "%s/fuzz_summaries.XXXXXX",
	         access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	snprintf(file_a, sizeof(file_a), "%s/a.json", dir);
	snprintf(file_b, sizeof(file_b), "%s/b.json", dir);
	atexit(cleanup);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

/* The view model's parts that show the merged ranks and the lead's
 * iterations (model_build less its per-run constants: the catalogue's
 * every message, the verdict texts, the docs), and report.json. */
static void show(const struct result *r)
{
	struct model_opts mo;
	struct model_ctx c;
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	memset(&mo, 0, sizeof(mo));
	mo.cat = cat;
	mo.docs_base = MODEL_DOCS_BASE;
	mo.date = "2026-01-01 00:00 UTC";
	mo.version = "0";
	c.r = r;
	c.o = &mo;
	strbuf_init(&c.sb);
	model_summary(&c, v);
	model_ranks(&c, v);
	model_memory(&c, v);
	model_iters(&c, v);
	strbuf_release(&c.sb);
	tmpl_vars_free(v);
	if (render_json(r, "0", &out, &e))
		abort(); /* capped summaries are far below the writer's limit */
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	const char *paths[2] = {file_a, file_b};
	struct options o;
	struct result r;
	struct err e = ERR_INIT;

	if (!cat)
		setup();
	if (nul) {
		put(file_a, data, (size_t)(nul - data));
		put(file_b, nul + 1, size - (size_t)(nul - data) - 1);
	} else {
		put(file_a, data, size);
		put(file_b, data, size);
	}
	memset(&o, 0, sizeof(o));
	o.cmd = CMD_REPORT;
	o.paths = paths;
	o.npaths = 2;
	o.path = paths[0];
	if (summaries_analyse(&o, &ru, &r, &e)) {
		if (e.code != ERR_INPUT || !e.msg[0])
			abort();
	} else {
		show(&r);
	}
	result_release(&r);
	return 0;
}
