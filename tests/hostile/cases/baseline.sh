# The yardstick: an ordinary example profile, bounded like the attacks.
bounded example_report 0 200 60 '' -- \
	"$SDPERF" report "$ROOT/examples/image-dit-1card" -o out -q
