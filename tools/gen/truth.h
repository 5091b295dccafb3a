/* truth.h: ground truth per rank: stage/category of every kernel row and
 * per-stage totals, built from what the generator placed (not re-measured). */
#ifndef GEN_TRUTH_H
#define GEN_TRUTH_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "outbuf.h"
#include "timeline.h"

struct stage_acc {
	uint64_t kernels;
	int64_t time;
	uint64_t count[CAT_COUNT];
	int64_t cat_time[CAT_COUNT];
	int64_t exposed; /* sum over comm kernels of duration - covered */
};

struct truth {
	struct stage_acc st[ST_COUNT];
	uint64_t kernels;
	int steps;
};

void truth_add_step(struct truth *t, const struct model *m,
                    const struct step *s);

/* rank{r}.kernels.csv: "stage,category" then one line per kernel row. */
void truth_csv_header(struct outbuf *ob);
void truth_csv_step(struct outbuf *ob, const struct model *m,
                    const struct step *s);

/* rank{r}.json. Returns 0, or -1 with errno set. */
int truth_write_json(const char *path, const struct truth *t, int rank);

/* Write `ns` as microseconds with exactly 3 decimals to a stdio stream. */
void truth_print_us(FILE *fp, int64_t ns);

#endif
