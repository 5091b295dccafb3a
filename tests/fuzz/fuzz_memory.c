/* libFuzzer target: the memory readers (memory_record.csv,
 * operator_memory.csv, npu_module_mem.csv) must never crash, hang or leak
 * on any input, and every sample they hand on has a non-negative time and
 * at least one non-negative size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input/memrec.h"
#include "input/opmem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct mem_sample *s, void *ctx)
{
	uint64_t *n = ctx;

	if (s->ts_ns < 0 || (s->allocated_b < 0 && s->reserved_b < 0) ||
	    s->allocated_b < -1 || s->reserved_b < -1)
		abort();
	(*n)++;
}

static void verdict(int rc, const struct memrec_info *in, uint64_t n,
                    const struct err *e)
{
	if (rc == 0 && (n != in->samples || in->bad > in->rows))
		abort();
	if (rc != 0 && (e->code != ERR_INPUT || !e->msg[0]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct memrec_info in;
	struct err e = ERR_INIT;
	uint64_t n = 0;
	int rc;

	rc = memrec_read_mem("m.csv", data, size, check, &n, &in, &e);
	verdict(rc, &in, n, &e);
	err_clear(&e);
	n = 0;
	rc = opmem_read_mem("o.csv", data, size, check, &n, &in, &e);
	verdict(rc, &in, n, &e);
	err_clear(&e);
	n = 0;
	rc = modmem_read_mem("n.csv", data, size, check, &n, &in, &e);
	verdict(rc, &in, n, &e);
	return 0;
}
