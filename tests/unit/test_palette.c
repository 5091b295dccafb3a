/* Unit tests of view/palette: the colours stay apart for colour-blind
 * readers, and report.css and the PDF use the same values.
 *
 * Distance is CIEDE2000 (Sharma, Wu & Dalal, "The CIEDE2000 color-
 * difference formula: implementation notes, supplementary test data, and
 * mathematical observations", Color Res. Appl. 30(1), 2005), on CIELAB
 * under D65 from sRGB (IEC 61966-2-1).
 *
 * Colour-blindness is simulated with the severity-1.0 matrices of Machado,
 * Oliveira & Fernandes, "A Physiologically-based Model for Simulation of
 * Color Vision Deficiency", IEEE TVCG 15(6), 2009 (the authors' published
 * table, applied to linear RGB, results clamped to [0, 1]). */
#include "unit.h"

#include <math.h>

#include "format/pdf/pdf_text.h"
#include "view/palette.h"

#define MIN_DELTA_E 20.0
#define PI          3.14159265358979323846

static const double protanopia[3][3] = {{0.152286, 1.052583, -0.204868},
                                        {0.114503, 0.786281, 0.099216},
                                        {-0.003882, -0.048116, 1.051998}};
static const double deuteranopia[3][3] = {{0.367322, 0.860646, -0.227968},
                                          {0.280085, 0.672501, 0.047413},
                                          {-0.011820, 0.042940, 0.968881}};

struct lab {
	double l, a, b;
};

static double linear(unsigned v)
{
	double c = v / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
	return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116;
}

/* rgb as seen through m (NULL: normal vision), in CIELAB. */
static struct lab to_lab(unsigned long rgb, const double (*m)[3])
{
	double c[3] = {linear((rgb >> 16) & 255), linear((rgb >> 8) & 255),
	               linear(rgb & 255)};
	double s[3], x, y, z;
	struct lab out;
	int i;

	for (i = 0; i < 3; i++) {
		s[i] =
		    m ? m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2] : c[i];
		s[i] = s[i] < 0 ? 0 : s[i] > 1 ? 1 : s[i];
	}
	x = (0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2]) / 0.95047;
	y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
	z = (0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2]) / 1.08883;
	out.l = 116 * lab_f(y) - 16;
	out.a = 500 * (lab_f(x) - lab_f(y));
	out.b = 200 * (lab_f(y) - lab_f(z));
	return out;
}

static double deg(double r)
{
	return r * 180 / PI;
}
static double rad(double d)
{
	return d * PI / 180;
}

static double hue(double b, double a)
{
	double h;
	if (a == 0 && b == 0)
		return 0;
	h = deg(atan2(b, a));
	return h < 0 ? h + 360 : h;
}

static double pow7(double c)
{
	return pow(c, 7) / (pow(c, 7) + pow(25, 7));
}

/* CIEDE2000 with kL = kC = kH = 1, following Sharma et al.'s steps. */
static double de2000(struct lab p, struct lab q)
{
	double cb = (hypot(p.a, p.b) + hypot(q.a, q.b)) / 2;
	double g = 0.5 * (1 - sqrt(pow7(cb)));
	double a1 = (1 + g) * p.a, a2 = (1 + g) * q.a;
	double c1 = hypot(a1, p.b), c2 = hypot(a2, q.b);
	double h1 = hue(p.b, a1), h2 = hue(q.b, a2);
	double dh = 0, hb = h1 + h2, lb, cbp, t, sl, sc, sh, rt, dl, dc, dhh;

	if (c1 * c2 != 0) {
		dh = h2 - h1;
		dh = dh > 180 ? dh - 360 : dh < -180 ? dh + 360 : dh;
		hb = fabs(h1 - h2) <= 180 ? (h1 + h2) / 2
		     : h1 + h2 < 360      ? (h1 + h2 + 360) / 2
		                          : (h1 + h2 - 360) / 2;
	}
	dl = q.l - p.l;
	dc = c2 - c1;
	dhh = 2 * sqrt(c1 * c2) * sin(rad(dh / 2));
	lb = (p.l + q.l) / 2;
	cbp = (c1 + c2) / 2;
	t = 1 - 0.17 * cos(rad(hb - 30)) + 0.24 * cos(rad(2 * hb)) +
	    0.32 * cos(rad(3 * hb + 6)) - 0.20 * cos(rad(4 * hb - 63));
	sl = 1 +
	     0.015 * (lb - 50) * (lb - 50) / sqrt(20 + (lb - 50) * (lb - 50));
	sc = 1 + 0.045 * cbp;
	sh = 1 + 0.015 * cbp * t;
	rt =
	    -sin(rad(60 * exp(-pow((hb - 275) / 25, 2)))) * 2 * sqrt(pow7(cbp));
	return sqrt(pow(dl / sl, 2) + pow(dc / sc, 2) + pow(dhh / sh, 2) +
	            rt * (dc / sc) * (dhh / sh));
}

/* Sharma et al.'s supplementary test data, pairs 1, 7, 17, 25 and 34. */
static void de2000_matches_published_pairs(void **state)
{
	static const double pairs[][7] = {
	    {50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425},
	    {50, 0, 0, 50, -1, 2, 2.3669},
	    {50, 2.5, 0, 73, 25, -18, 27.1492},
	    {60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644},
	    {2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082}};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(pairs); i++) {
		struct lab p = {pairs[i][0], pairs[i][1], pairs[i][2]};
		struct lab q = {pairs[i][3], pairs[i][4], pairs[i][5]};
		double d = de2000(p, q);
		if (fabs(d - pairs[i][6]) > 1e-4)
			fail_msg("pair %zu: %.4f, want %.4f", i + 1, d,
			         pairs[i][6]);
	}
}

/* Every pair of tab[0..n) at least MIN_DELTA_E apart under normal vision,
 * protanopia and deuteranopia; returns the smallest distance. */
static double check_apart(const char *group, const struct palette_colour *tab,
                          size_t n)
{
	static const struct {
		const char *name;
		const double (*m)[3];
	} sims[] = {{"normal", NULL},
	            {"protanopia", protanopia},
	            {"deuteranopia", deuteranopia}};
	double worst = 1e9;
	size_t s, i, j;

	for (s = 0; s < ARRAY_LEN(sims); s++)
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				double d =
				    de2000(to_lab(tab[i].rgb, sims[s].m),
				           to_lab(tab[j].rgb, sims[s].m));
				if (d < MIN_DELTA_E)
					fail_msg("%s under %s: %s #%06lx and "
					         "%s #%06lx are only dE %.1f "
					         "apart",
					         group, sims[s].name,
					         tab[i].name, tab[i].rgb,
					         tab[j].name, tab[j].rgb, d);
				worst = d < worst ? d : worst;
			}
	print_message("%s: smallest dE2000 %.1f (normal, protanopia, "
	              "deuteranopia)\n",
	              group, worst);
	return worst;
}

static void categories_apart_for_colour_blind(void **state)
{
	(void)state;
	check_apart("categories", palette_categories, CAT_COUNT);
}

static void stages_apart_for_colour_blind(void **state)
{
	(void)state;
	check_apart("stages", palette_stages, STAGE_COUNT);
}

static void overlap_parts_apart_for_colour_blind(void **state)
{
	(void)state;
	check_apart("overlap parts", palette_overlap, PAL_OVERLAP_COUNT);
}

static void fired_and_ok_apart_for_colour_blind(void **state)
{
	(void)state;
	check_apart("states", palette_states, 2); /* fired, ok */
}

/* The simulation is not the identity: the old red/green badges, which
 * looked alike under protanopia, must fail the same check. */
static void simulation_catches_red_green(void **state)
{
	struct lab r = to_lab(0xc0392b, protanopia);
	struct lab g = to_lab(0x2e7d4f, protanopia);

	(void)state;
	assert_true(de2000(to_lab(0xc0392b, NULL), to_lab(0x2e7d4f, NULL)) >
	            MIN_DELTA_E);
	assert_true(de2000(r, g) < MIN_DELTA_E);
}

/* One colour, one meaning: no two groups share a colour. */
static void no_colour_serves_two_meanings(void **state)
{
	const struct {
		const struct palette_colour *tab;
		size_t n;
	} groups[] = {{palette_categories, CAT_COUNT},
	              {palette_stages, STAGE_COUNT},
	              {palette_overlap, PAL_OVERLAP_COUNT},
	              {palette_states, PAL_STATE_COUNT}};
	size_t g, h, i, j;

	(void)state;
	for (g = 0; g < ARRAY_LEN(groups); g++)
		for (h = g; h < ARRAY_LEN(groups); h++)
			for (i = 0; i < groups[g].n; i++)
				for (j = g == h ? i + 1 : 0; j < groups[h].n;
				     j++)
					if (groups[g].tab[i].rgb ==
					    groups[h].tab[j].rgb)
						fail_msg("#%06lx is %s and %s",
						         groups[g].tab[i].rgb,
						         groups[g].tab[i].name,
						         groups[h].tab[j].name);
}

static char *read_css(void)
{
	FILE *f = fopen(SDPERF_TEST_DATA "/../../assets/report.css", "rb");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* report.css declares "--<prefix><name>: #rrggbb;" for every colour. */
static void check_css(const char *css, const char *prefix,
                      const struct palette_colour *tab, size_t n)
{
	char want[96];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "--%s%s: #%06lx;", prefix,
		         tab[i].name, tab[i].rgb);
		if (!strstr(css, want))
			fail_msg("report.css lacks '%s'", want);
	}
}

static void css_and_pdf_use_the_palette(void **state)
{
	char *css = read_css();

	(void)state;
	check_css(css, "c-", palette_categories, CAT_COUNT);
	check_css(css, "s-", palette_stages, STAGE_COUNT);
	check_css(css, "o-", palette_overlap, PAL_OVERLAP_COUNT);
	check_css(css, "", palette_states, PAL_STATE_COUNT);
	assert_int_equal(PDF_FIRED, palette_states[PAL_FIRED].rgb);
	assert_int_equal(PDF_OK, palette_states[PAL_OK].rgb);
	assert_int_equal(PDF_NA, palette_states[PAL_NA].rgb);
	free(css);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(de2000_matches_published_pairs),
	    cmocka_unit_test(simulation_catches_red_green),
	    cmocka_unit_test(categories_apart_for_colour_blind),
	    cmocka_unit_test(stages_apart_for_colour_blind),
	    cmocka_unit_test(overlap_parts_apart_for_colour_blind),
	    cmocka_unit_test(fired_and_ok_apart_for_colour_blind),
	    cmocka_unit_test(no_colour_serves_two_meanings),
	    cmocka_unit_test(css_and_pdf_use_the_palette),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
