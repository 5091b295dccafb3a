/* trace.c: trace_view.json. Like real files it mixes ", " and "," between
 * events and gives `ts` as a string of microseconds with 3 decimals. */
#include "trace.h"

#include <string.h>

#include "banned.h"

/* pids of the processes; real files use large encoded numbers, and readers
 * must find processes by name, so these only need to be distinct. */
#define PID_CANN(rc)    (40508640 + (rc)->rank * 1024)
#define PID_HW(rc)      (PID_CANN(rc) + 192)
#define PID_HCCL(rc)    (PID_CANN(rc) + 256)
#define PID_OVERLAP(rc) (PID_CANN(rc) + 448)
#define STREAM          2
#define COMM_STREAM     3 /* --subtasks: HCCL's own stream on the card */

/* Separator before an event. */
static void sep(struct outbuf *ob, int bare)
{
	ob_str(ob, bare ? "," : ", ");
}

static void meta(struct outbuf *ob, const char *what, int pid, int tid,
                 const char *key, const char *sval, int64_t ival)
{
	/* Only the very first event, right after the '[' still in the buffer
	 * (nothing is flushed this early), goes without a separator. */
	if (!(ob->len && ob->buf[ob->len - 1] == '['))
		sep(ob, 0);
	ob_str(ob, "{\"name\": \"");
	ob_str(ob, what);
	ob_str(ob, "\", \"pid\": ");
	ob_i64(ob, pid);
	ob_str(ob, ", \"tid\": ");
	ob_i64(ob, tid);
	ob_str(ob, ", \"args\": {\"");
	ob_str(ob, key);
	ob_str(ob, "\": ");
	if (sval) {
		ob_ch(ob, '"');
		ob_str(ob, sval);
		ob_ch(ob, '"');
	} else {
		ob_i64(ob, ival);
	}
	ob_str(ob, "}, \"ph\": \"M\"}");
}

static void process(struct outbuf *ob, int pid, const char *name,
                    const char *label, int sort)
{
	meta(ob, "process_name", pid, 0, "name", name, 0);
	meta(ob, "process_labels", pid, 0, "labels", label, 0);
	meta(ob, "process_sort_index", pid, 0, "sort_index", NULL, sort);
}

static void thread(struct outbuf *ob, int pid, int tid, const char *name)
{
	meta(ob, "thread_name", pid, tid, "name", name, 0);
	meta(ob, "thread_sort_index", pid, tid, "sort_index", NULL, tid);
}

void trace_begin(struct outbuf *ob, const struct rankctx *rc)
{
	static const char *const ov_threads[4] = {
	    "Computing", "Communication", "Communication(Not Overlapped)",
	    "Free"};
	char tname[32];
	int i;

	/* The object form puts members with brackets and braces before
	 * traceEvents, so a reader cannot assume it comes first. */
	if (rc->o->trace_object)
		ob_str(ob,
		       "{\"schemaVersion\": 1, \"deviceProperties\": "
		       "[{\"name\": \"Ascend [x]\", \"note\": \"{\\\"a\\\": "
		       "[1]}\"}], \"traceEvents\": ");
	ob_ch(ob, '[');
	if (!rc->o->npu_only) { /* ProfilerActivity.CPU: the host */
		process(ob, rc->host_pid, "Python", "CPU", 0);
		snprintf(tname, sizeof(tname), "Thread %d", rc->host_pid);
		thread(ob, rc->host_pid, rc->host_pid, tname);
		process(ob, PID_CANN(rc), "CANN", "CPU", 7);
		thread(ob, PID_CANN(rc), rc->host_pid, tname);
	}
	process(ob, PID_HW(rc), "Ascend Hardware", "NPU", 13);
	thread(ob, PID_HW(rc), STREAM, "Stream 2");
	if ((rc->o->subtasks || rc->o->trace_gen == TRACE_GEN_2025) &&
	    rc->m->sp)
		thread(ob, PID_HW(rc), COMM_STREAM, "Stream 3");
	if (rc->m->hccl) {
		process(ob, PID_HCCL(rc), "HCCL", "NPU", 15);
		thread(ob, PID_HCCL(rc), 0, "Group 0 Communication");
		thread(ob, PID_HCCL(rc), 1, "Plane 0");
	}
	process(ob, PID_OVERLAP(rc), "Overlap Analysis", "NPU", 21);
	for (i = 0; i < 4; i++)
		thread(ob, PID_OVERLAP(rc), i, ov_threads[i]);
}

/* {"name": "...", "pid": P, "tid": T, "ts": "...", "dur": D */
static void x_head(struct outbuf *ob, const char *name, size_t nlen, int pid,
                   int tid, int64_t ts, int64_t dur)
{
	ob_str(ob, "{\"name\": \"");
	ob_mem(ob, name, nlen);
	ob_str(ob, "\", \"pid\": ");
	ob_i64(ob, pid);
	ob_str(ob, ", \"tid\": ");
	ob_i64(ob, tid);
	ob_str(ob, ", \"ts\": \"");
	ob_us3(ob, ts);
	ob_str(ob, "\", \"dur\": ");
	ob_us_py(ob, dur);
}

/* A record_function range on the Python thread. */
static void cpu_op(struct outbuf *ob, const struct rankctx *rc,
                   const char *name, size_t nlen, int64_t ts, int64_t dur)
{
	x_head(ob, name, nlen, rc->host_pid, rc->host_pid, ts, dur);
	ob_str(ob, ", \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": -1, "
	           "\"Fwd thread id\": 0}, \"ph\": \"X\"}");
}

static void profiler_step(struct outbuf *ob, const struct rankctx *rc,
                          const struct step *s)
{
	char name[40];
	int n = snprintf(name, sizeof(name), "ProfilerStep#%d", s->number);

	sep(ob, 1); /* the odd bare separator of real files */
	cpu_op(ob, rc, name, (size_t)n, s->host_start, s->host_dur);
}

static void markers(struct outbuf *ob, const struct rankctx *rc,
                    const struct launch *l)
{
	size_t i;

	for (i = 0; i < l->nmk; i++) {
		const struct marker *mk = &l->mk[i];
		const char *name = launch_marker_name(mk->stage);

		sep(ob, 0);
		cpu_op(ob, rc, name, strlen(name), mk->host_start,
		       mk->host_end - mk->host_start);
	}
}

/* One end of a torch_to_npu flow. */
static void flow(struct outbuf *ob, int end, uint64_t id, int pid, int tid,
                 int64_t ts)
{
	sep(ob, 0);
	ob_str(ob,
	       end ? "{\"ph\": \"f\", \"bp\": \"e\", " : "{\"ph\": \"s\", ");
	ob_str(ob, "\"name\": \"torch_to_npu\", \"cat\": \"async_npu\", "
	           "\"id\": ");
	ob_u64(ob, id);
	ob_str(ob, ", \"pid\": ");
	ob_i64(ob, pid);
	ob_str(ob, ", \"tid\": ");
	ob_i64(ob, tid);
	ob_str(ob, ", \"ts\": \"");
	ob_us3(ob, ts);
	ob_str(ob, "\"}");
}

static void device_kernel(struct outbuf *ob, const struct rankctx *rc,
                          const struct kern *k, const struct tmpl *t,
                          uint64_t conn)
{
	sep(ob, 0);
	x_head(ob, t->name, strlen(t->name), PID_HW(rc), STREAM, k->start,
	       k->dur);
	ob_str(ob, ", \"args\": {\"Model Id\": 4294967295, \"Task Type\": \"");
	ob_str(ob, CORE_NAMES[t->op->core]);
	ob_str(ob, "\", \"Physic Stream Id\": 2, \"Task Id\": ");
	ob_u64(ob, k->seq);
	ob_str(ob, ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, "
	           "\"connection_id\": ");
	ob_u64(ob, conn);
	ob_str(ob, "}, \"ph\": \"X\"}");
}

static void comm_kernel(struct outbuf *ob, const struct rankctx *rc,
                        const struct kern *k, const struct tmpl *t,
                        uint64_t conn)
{
	char name[64];
	int n = snprintf(name, sizeof(name), "%s_%u_0_1", t->op->type,
	                 (unsigned)k->seq);

	sep(ob, 0);
	x_head(ob, name, (size_t)n, PID_HCCL(rc), 0, k->start, k->dur);
	ob_str(ob, ", \"args\": {\"connection_id\": ");
	ob_u64(ob, conn);
	ob_str(ob, ", \"model id\": 4294967295, \"data_type\": \"BFP16\", "
	           "\"alg_type\": \"MESH\", \"count\": ");
	ob_u64(ob, t->comm_bytes / 2);
	ob_str(ob, "}, \"ph\": \"X\"}");
}

/* ---- --subtasks: what real traces have beside the kernels ---------------
 * Named as the runtime names tasks without an operator (EVENT_RECORD,
 * NOTIFY_WAIT, ...) or "Other", on the compute and HCCL streams, a host
 * memory copy ("MemcopyAsync", Task Type "other") per step, and HCCL's
 * Plane sub-tasks with their "src rank" (not in Level0, as in the real
 * Level0 capture). None is a kernel: kernel_details.csv has none. */

/* A task without an operator on Ascend Hardware; its Task Type is "Other"
 * in the 2024 generation, tt (its own) in the 2025 one. */
static void hw_task(struct outbuf *ob, const struct rankctx *rc,
                    const char *name, const char *tt, int tid, int64_t ts,
                    int64_t dur, uint64_t task)
{
	sep(ob, 0);
	x_head(ob, name, strlen(name), PID_HW(rc), tid, ts, dur);
	ob_str(ob, ", \"args\": {\"Model Id\": 4294967295, \"Task Type\": \"");
	ob_str(ob, rc->o->trace_gen == TRACE_GEN_2025 ? tt : "Other");
	ob_str(ob, "\", \"Physic Stream Id\": ");
	ob_i64(ob, tid);
	ob_str(ob, ", \"Task Id\": ");
	ob_u64(ob, task);
	ob_str(ob, ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, "
	           "\"connection_id\": -1}, \"ph\": \"X\"}");
}

static void hw_subtask(struct outbuf *ob, const struct rankctx *rc,
                       const char *name, int tid, int64_t ts, int64_t dur,
                       uint64_t task)
{
	hw_task(ob, rc, name, name, tid, ts, dur, task);
}

static void host_memcpy(struct outbuf *ob, const struct rankctx *rc, int64_t ts,
                        int64_t dur, uint64_t task)
{
	sep(ob, 0);
	x_head(ob, "MemcopyAsync", 12, PID_HW(rc), STREAM, ts, dur);
	ob_str(ob, ", \"args\": {\"Task Type\": \"");
	ob_str(ob,
	       rc->o->trace_gen == TRACE_GEN_2025 ? "MEMCPY_ASYNC" : "other");
	ob_str(ob, "\", \"Stream Id\": 2, \"Task Id\": ");
	ob_u64(ob, task);
	ob_str(ob, ", \"Receive Time\": \"");
	ob_us3(ob, ts - 9000);
	ob_str(ob, "\"}, \"ph\": \"X\"}");
}

static void plane_subtask(struct outbuf *ob, const struct rankctx *rc,
                          const char *name, int64_t ts, int64_t dur,
                          uint64_t task)
{
	sep(ob, 0);
	x_head(ob, name, strlen(name), PID_HCCL(rc), 1, ts, dur);
	ob_str(ob, ", \"args\": {\"stream id\": 3, \"task id\": ");
	ob_u64(ob, task);
	ob_str(ob, ", \"task type\": \"");
	ob_str(ob, name);
	ob_str(ob, "\", \"src rank\": ");
	ob_i64(ob, rc->rank);
	ob_str(ob, ", \"dst rank\": ");
	ob_i64(ob, (rc->rank + 1) % rc->o->ranks);
	ob_str(ob, ", \"transport type\": \"SDMA\", \"link type\": \"HCCS\", "
	           "\"model id\": 4294967295}, \"ph\": \"X\"}");
}

/* A collective's sub-tasks, inside its own span: the compute stream
 * records an event, HCCL's stream waits for it, notifies, copies, waits
 * for the peer, and its Plane shows the same from HCCL's side. */
static void comm_subtasks(struct outbuf *ob, const struct rankctx *rc,
                          const struct kern *k)
{
	int64_t a = k->start, d = k->dur, copy = d * 3 / 10;
	uint64_t t = (uint64_t)k->seq * 8;

	hw_subtask(ob, rc, "EVENT_RECORD", STREAM, a, 20, t);
	hw_subtask(ob, rc, "EVENT_WAIT", COMM_STREAM, a, 500, t + 1);
	/* 2025: HCCL's task level is there instead (hccl_tasks) */
	if (rc->o->trace_gen != TRACE_GEN_2025) {
		hw_subtask(ob, rc, "NOTIFY_RECORD", COMM_STREAM, a + 1000, 50,
		           t + 2);
		hw_subtask(ob, rc, "MEMCPY_ASYNC", COMM_STREAM, a + 2000, copy,
		           t + 3);
		hw_subtask(ob, rc, "NOTIFY_WAIT", COMM_STREAM, a + 2000 + copy,
		           d - 3000 - copy > 0 ? d - 3000 - copy : 0, t + 4);
		hw_subtask(ob, rc, "Other", COMM_STREAM, a + d - 10, 10, t + 5);
	}
	if (rc->o->variant == V_L0 || rc->o->variant == V_L0_OLD)
		return;
	plane_subtask(ob, rc, "Notify_Record", a + 1000, 50, t + 2);
	plane_subtask(ob, rc, "Memcpy", a + 2000, copy, t + 3);
	plane_subtask(ob, rc, "Notify_Wait", a + 2000 + copy,
	              d - 3000 - copy > 0 ? d - 3000 - copy : 0, t + 4);
}

/* --trace-generation 2025: the collective's task level on Ascend
 * Hardware, on its stream, end to end over its span: the peer notified
 * (Notify Record, a Write Value task), the data copied and reduced (SDMA
 * tasks), the wait for the peer to the end (Notify Wait). The Task Types
 * are those the 2025 AlexNet db gives the same tasks in TASK.taskType
 * (COMMUNICATION_TASK_INFO's Notify_Record, Memcpy, Reduce_Inline,
 * Notify_Wait). None is a kernel: the collective is. */
static void hccl_tasks(struct outbuf *ob, const struct rankctx *rc,
                       const struct kern *k)
{
	int64_t a = k->start, d = k->dur;
	int64_t rec = d >= 200 ? 50 : d / 4, copy = d * 3 / 10, red = d / 10;
	int64_t wait = d - rec - copy - red;
	uint64_t t = (uint64_t)k->seq * 8 + 4;

	hw_task(ob, rc, "Notify Record", "Write Value", COMM_STREAM, a, rec, t);
	hw_task(ob, rc, "Memcpy", "SDMA", COMM_STREAM, a + rec, copy, t + 1);
	hw_task(ob, rc, "Reduce Inline", "SDMA", COMM_STREAM, a + rec + copy,
	        red, t + 2);
	hw_task(ob, rc, "Notify Wait", "Notify Wait", COMM_STREAM,
	        a + rec + copy + red, wait > 0 ? wait : 0, t + 3);
}

static void overlap_events(struct outbuf *ob, const struct rankctx *rc,
                           const struct ivlist *l, int tid, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		sep(ob, 0);
		x_head(ob, name, strlen(name), PID_OVERLAP(rc), tid, l->v[i].a,
		       l->v[i].b - l->v[i].a);
		ob_str(ob, ", \"ph\": \"X\"}");
	}
}

void trace_step(struct outbuf *ob, const struct rankctx *rc,
                const struct step *s, const struct overlap *ov,
                const struct launch *l)
{
	int flows = l && rc->o->flows;
	int sub = rc->o->subtasks;
	size_t i;

	if (!rc->o->npu_only)
		profiler_step(ob, rc, s);
	if (l)
		markers(ob, rc, l);
	if (sub)
		host_memcpy(ob, rc, s->first_start - 400000, 25000,
		            (uint64_t)s->number);
	if (rc->o->unknown_tt) /* a task type no table knows: 1 us */
		hw_task(ob, rc, "InjectedTask", rc->o->unknown_tt, STREAM,
		        s->first_start - 200000, 1000, (uint64_t)s->number);
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		const struct tmpl *t = &rc->m->t[k->tmpl];
		uint64_t conn = (uint64_t)s->number * 100000 + i;
		int hccl = t->op->core == CORE_HCCL;

		if (hccl)
			comm_kernel(ob, rc, k, t, conn);
		else
			device_kernel(ob, rc, k, t, conn);
		if (hccl && sub)
			comm_subtasks(ob, rc, k);
		if (hccl && rc->o->trace_gen == TRACE_GEN_2025)
			hccl_tasks(ob, rc, k);
		if (!flows)
			continue;
		flow(ob, 0, conn, rc->host_pid, rc->host_pid, l->host[i]);
		flow(ob, 1, conn, hccl ? PID_HCCL(rc) : PID_HW(rc),
		     hccl ? 0 : STREAM, k->start);
	}
	overlap_events(ob, rc, &ov->comp, 0, "Computing");
	overlap_events(ob, rc, &ov->comm, 1, "Communication");
	overlap_events(ob, rc, &ov->commx, 2, "Communication(Not Overlapped)");
	overlap_events(ob, rc, &ov->freei, 3, "Free");
}

void trace_end(struct outbuf *ob, const struct rankctx *rc)
{
	ob_ch(ob, ']');
	if (rc->o->trace_object)
		ob_str(ob,
		       ", \"displayTimeUnit\": \"ns\", \"otherData\": "
		       "{\"note\": \"[brackets] and {braces} in a string\"}}");
}
