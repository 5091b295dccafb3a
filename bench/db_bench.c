/* The db export's kernel read on one ascend_pytorch_profiler*.db: db_open +
 * db_read_kernels (COMPUTE_TASK_INFO x TASK and COMMUNICATION_OP into the
 * kernel table), kernels per second and peak RSS, for bench/db.sh. */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "input/db.h"
#include "input/kernels.h"
#include "util/banned.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(long *maxrss_kb)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	*maxrss_kb = r.ru_maxrss;
	return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6 +
	       (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;
	struct db *db = NULL;
	double t0, secs, cpu;
	long rss;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: db_bench ASCEND_PYTORCH_PROFILER_DB\n");
		return 2;
	}
	kernel_table_init(&kt);
	t0 = now();
	if (db_open(argv[1], &db, &e) || db_read_kernels(db, 0, &kt, &info, &e))
		goto out;
	secs = now() - t0;
	/* CPU time too: on a shared machine wall time measures the others */
	cpu = cpu_seconds(&rss);
	printf("bytes %" PRId64 " kernels %zu seconds %.3f kernels/s %.0f "
	       "cpu_seconds %.3f cpu_kernels/s %.0f maxrss_kb %ld\n",
	       db_about(db)->size, kt.n, secs, (double)kt.n / secs, cpu,
	       (double)kt.n / cpu, rss);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "db_bench: %s\n", e.msg);
	db_close(db);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	return rc;
}
