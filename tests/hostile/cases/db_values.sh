# The SQLite db export made hostile: a 64 MiB kernel name (values over
# 1 MiB are refused, not held), 60,000 distinct kernel names (the string
# cache stays fixed), 200,000 of them (refused past 65,536 distinct kernel
# types, as kernel_details.csv is: the analysis keeps sums per type), and
# a TASK that is a view of a recursive query without end (only real
# tables are read: it is no TASK table).
python3 - <<'PY'
import sqlite3
S = ("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
     "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,globalTaskId INTEGER,"
     "connectionId INTEGER);"
     "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER "
     "PRIMARY KEY,taskType INTEGER,opType INTEGER);")
c = sqlite3.connect("huge_name.db")
c.executescript(S)
c.execute("INSERT INTO STRING_IDS VALUES (1, ?)", ("M" * (64 << 20),))
c.execute("INSERT INTO STRING_IDS VALUES (2, 'AI_CORE')")
c.execute("INSERT INTO TASK VALUES (1000, 2000, 1, 0)")
c.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (1, 1, 2, NULL)")
c.commit()
for name, n in (("many_names.db", 60000), ("too_many_names.db", 200000)):
    c = sqlite3.connect(name)
    c.executescript(S)
    c.execute("INSERT INTO STRING_IDS VALUES (0, 'AI_CORE')")
    c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)",
                  ((i, "Kernel%07dX" % i) for i in range(1, n + 1)))
    c.executemany("INSERT INTO TASK VALUES (?, ?, ?, 0)",
                  ((1000 + 10 * i, 1005 + 10 * i, i)
                   for i in range(1, n + 1)))
    c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?, ?, 0, ?)",
                  ((i, i, i) for i in range(1, n + 1)))
    c.commit()
c = sqlite3.connect("view_bomb.db")
c.executescript(S.replace("CREATE TABLE TASK", "CREATE TABLE T0") +
    "CREATE VIEW TASK AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
    "SELECT x + 1 FROM r) SELECT x AS startNs, x + 1 AS endNs, x AS "
    "globalTaskId, 0 AS connectionId FROM r;")
c.commit()
PY
bounded db_huge_name 3 200 60 "a value longer than 1048576 bytes" -- \
	"$SDPERF" report huge_name.db -o out_huge -q
bounded db_many_names 0 300 60 '' -- \
	"$SDPERF" report many_names.db -o out_many -q -f json
bounded db_too_many_names 3 300 60 'more than 65,536 distinct kernel types' -- \
	"$SDPERF" report too_many_names.db -o out_too_many -q -f json
[ ! -e out_too_many ] && ok db_too_many_names_writes_nothing ||
	bad db_too_many_names_writes_nothing
bounded db_view_bomb 3 200 60 "no TASK table" -- \
	"$SDPERF" report view_bomb.db -o out_view -q
