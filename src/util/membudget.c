/* The memory budget: one atomic account for the whole process, charged
 * before any input-sized structure grows. */
#include "util/membudget.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/banned.h"

#define MIB            (1024.0 * 1024.0)
#define FALLBACK_LIMIT ((uint64_t)4 << 30)

static uint64_t limit_bytes = MEMBUDGET_UNLIMITED;
static _Atomic uint64_t used_bytes;
static _Atomic uint64_t peak_bytes;

static uint64_t phys_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)page;
}

/* memory.max of the cgroup v2 this process is in ("max": no limit). */
static uint64_t cgroup_bytes(void)
{
	char line[512], path[600];
	unsigned long long v = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "0::", 3);
	fclose(f);
	if (!found)
		return 0;
	line[strcspn(line, "\n")] = '\0';
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max",
	         strcmp(line + 3, "/") ? line + 3 : "");
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return (uint64_t)v;
}

static uint64_t least(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

uint64_t membudget_default(void)
{
	struct rlimit rl;
	uint64_t m = least(phys_bytes(), cgroup_bytes());

	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY)
		m = least(m, (uint64_t)rl.rlim_cur);
	return m ? m / 2 : FALLBACK_LIMIT;
}

void membudget_set(uint64_t limit)
{
	limit_bytes = limit ? limit : 1;
	atomic_store(&used_bytes, 0);
	atomic_store(&peak_bytes, 0);
}

uint64_t membudget_limit(void)
{
	return limit_bytes;
}

uint64_t membudget_used(void)
{
	return atomic_load(&used_bytes);
}

uint64_t membudget_peak(void)
{
	return atomic_load(&peak_bytes);
}

int membudget_charge(uint64_t n)
{
	uint64_t cur = atomic_load(&used_bytes), next, peak;

	do {
		if (n > limit_bytes || cur > limit_bytes - n)
			return -1;
		next = cur + n;
	} while (!atomic_compare_exchange_weak(&used_bytes, &cur, next));
	peak = atomic_load(&peak_bytes);
	while (next > peak &&
	       !atomic_compare_exchange_weak(&peak_bytes, &peak, next))
		;
	return 0;
}

void membudget_release(uint64_t n)
{
	uint64_t cur = atomic_load(&used_bytes);

	/* never below zero, even if a caller gives back too much */
	while (!atomic_compare_exchange_weak(&used_bytes, &cur,
	                                     cur > n ? cur - n : 0))
		;
}

int membudget_fail(struct err *e, uint64_t need, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addf(&sb,
	            ": needs %.0f MiB more memory than --max-memory allows "
	            "(limit %.0f MiB, %.0f MiB in use)",
	            (double)need / MIB + 0.5, (double)limit_bytes / MIB,
	            (double)membudget_used() / MIB);
	err_set(e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

int membudget_grow(void *pp, size_t size, size_t need, size_t *alloc)
{
	void **p = pp, *q;
	size_t n = *alloc, max = SIZE_MAX / size;

	if (need <= n)
		return 0;
	if (need > max)
		return -1;
	n = n < 16 ? 16 : n > max - n / 8 ? max : n + n / 8;
	if (n < need)
		n = need;
	if (membudget_charge((uint64_t)(n - *alloc) * size))
		return -1;
	q = realloc(*p, n * size);
	if (!q) {
		membudget_release((uint64_t)(n - *alloc) * size);
		return -1;
	}
	*p = q;
	*alloc = n;
	return 0;
}

void membudget_shrink(void *pp, size_t size, size_t n, size_t *alloc)
{
	void **p = pp, *q;

	if (n >= *alloc || !*p)
		return;
	q = realloc(*p, (n ? n : 1) * size);
	if (!q)
		return;
	membudget_release((uint64_t)(*alloc - n) * size);
	*p = q;
	*alloc = n;
}

int membudget_parse(const char *text, uint64_t *out)
{
	static const char units[] = "KMGT";
	char *end = NULL;
	const char *u;
	double v;
	int shift = 0;

	if (!text || *text < '0' || *text > '9')
		return -1;
	v = strtod(text, &end);
	if (end == text || !(v >= 0))
		return -1;
	if (!strcmp(end, "%")) {
		if (v <= 0 || v > 100 || !phys_bytes())
			return -1;
		v = v / 100.0 * (double)phys_bytes();
	} else if (*end) {
		u = strchr(units, end[0] & ~0x20);
		if (!u || !end[0])
			return -1;
		shift = 10 * (int)(u - units + 1);
		end++;
		if (*end && strcmp(end, "B") && strcmp(end, "iB") &&
		    strcmp(end, "b"))
			return -1;
	}
	v *= (double)((uint64_t)1 << shift);
	if (v < MIB || v >= 18e18)
		return -1;
	*out = (uint64_t)v;
	return 0;
}
