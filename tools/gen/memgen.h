/* memgen.h: the device memory a profile_memory=True capture records
 * (--memory): the framework allocator's samples (allocated, reserved:
 * memory_record.csv's PTA rows, the db's MEMORY_RECORD) and the driver's
 * samples of the device memory the process used (memory_record.csv's APP
 * rows, the db's NPU_MEM "app" rows), both from one function of the
 * kernels, so the text export and the db carry the same figures; and
 * their peaks for the ground truth. */
#ifndef GEN_MEMGEN_H
#define GEN_MEMGEN_H

#include <stdint.h>

#include "outbuf.h"
#include "rankctx.h"
#include "timeline.h"

/* One sample: app = 1 for the driver's (device_b), else the framework's
 * (allocated_b, reserved_b). Sizes are multiples of 16 KiB, so that MB
 * with six decimals is exact. */
struct memsample {
	int app;
	int64_t ts_ns;
	int64_t allocated_b, reserved_b, device_b;
};

/* The samples of step s, one at a time: *i starts at 0; returns 1 with
 * *out filled, 0 when there are no more. */
int memgen_next(const struct model *m, const struct step *s, size_t *i,
                struct memsample *out);

/* memory_record.csv: its header, and one step's rows. */
void memgen_csv_header(struct outbuf *ob, const struct rankctx *rc);
void memgen_csv_step(struct outbuf *ob, const struct rankctx *rc,
                     const struct step *s);

/* The peaks over the run (-1 before any sample). */
struct mempeaks {
	int64_t allocated_b, reserved_b, device_b;
};
void memgen_peaks_init(struct mempeaks *p);
void memgen_peaks_step(struct mempeaks *p, const struct model *m,
                       const struct step *s);

#endif
