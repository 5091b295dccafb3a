/* The bash completion script (sdperf --completion bash), written from the
 * option table (app/cli_opts.h): the option lists, which options take a
 * value and what the values are come from the rows the parser reads. The
 * fixed part below only walks the command line. */
#include <string.h>

#include "app/cli.h"
#include "app/cli_opts.h"
#include "view/i18n.h"
#include "util/banned.h"

/* clang-format off */
static const char head[] =
	"# bash completion for sdperf, written by `sdperf --completion bash`\n"
	"# from the option table of its parser. Install it as\n"
	"# share/bash-completion/completions/sdperf, or source it.\n\n";

/* The functions: _sdperf_expand (a long option from its unambiguous
 * beginning), _sdperf_takes_value (the next word is the word's value,
 * bundled short options too), _sdperf_list (the last item of a comma
 * list, without the items already in it), _sdperf (the completion). bash splits "--opt=VALUE" at '=' (in
 * COMP_WORDBREAKS) into "--opt" "=" "VALUE"; when '=' is not a word break
 * "--opt=VALUE" is one word. */
static const char body[] =
	"_sdperf_expand()\n"
	"{\n"
	"\tlocal o m= n=0\n"
	"\tfor o in $_sdperf_all; do\n"
	"\t\t[ \"$o\" = \"$1\" ] && { echo \"$o\"; return; }\n"
	"\t\tcase $o in \"$1\"*) m=$o; n=$((n + 1)) ;; esac\n"
	"\tdone\n"
	"\t[ $n -eq 1 ] && echo \"$m\"\n"
	"}\n\n"
	"_sdperf_takes_value()\n"
	"{\n"
	"\tlocal w c\n"
	"\tcase $1 in\n"
	"\t--*=* | - | --) return 1 ;;\n"
	"\t--*) w=$(_sdperf_expand \"$1\")\n"
	"\t\t[ -n \"$w\" ] && [[ \" $_sdperf_valued \" == *\" $w \"* ]] ;;\n"
	"\t-*) w=${1#-}\n"
	"\t\twhile [ -n \"$w\" ]; do\n"
	"\t\t\tc=${w:0:1} w=${w:1}\n"
	"\t\t\t[[ $_sdperf_short_valued == *\"$c\"* ]] || continue\n"
	"\t\t\t[ -z \"$w\" ]; return\n"
	"\t\tdone\n"
	"\t\treturn 1 ;;\n"
	"\t*) return 1 ;;\n"
	"\tesac\n"
	"}\n\n"
	"_sdperf_list()\n"
	"{\n"
	"\tlocal pre= last=$2 x left=\n"
	"\tcase $2 in *,*) pre=${2%,*}, last=${2##*,} ;; esac\n"
	"\tfor x in $1; do\n"
	"\t\t[[ ,$pre == *\",$x,\"* ]] || left+=\" $x\"\n"
	"\tdone\n"
	"\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -W \"$left\" -- \"$last\")\n"
	"}\n\n"
	"_sdperf()\n"
	"{\n"
	"\tlocal -a w=(\"${COMP_WORDS[@]}\")\n"
	"\tlocal cword=$COMP_CWORD i cmd= opt= pre= dashdash=\n"
	"\tlocal cur=${w[cword]} prev=${w[cword - 1]}\n"
	"\tCOMPREPLY=()\n"
	"\t# the command: the first word that is no option nor a value\n"
	"\tfor ((i = 1; i < cword; i++)); do\n"
	"\t\tif [ -n \"$dashdash\" ]; then\n"
	"\t\t\t[ -z \"$cmd\" ] && cmd=${w[i]}\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tcase ${w[i]} in\n"
	"\t\t--) dashdash=1 ;;\n"
	"\t\t=) i=$((i + 1)) ;; # the rest of a value split at '='\n"
	"\t\t-?*) if [ \"${w[i + 1]}\" = = ]; then\n"
	"\t\t\t\ti=$((i + 2))\n"
	"\t\t\telif _sdperf_takes_value \"${w[i]}\"; then\n"
	"\t\t\t\ti=$((i + 1))\n"
	"\t\t\tfi ;;\n"
	"\t\t*) [ -z \"$cmd\" ] && cmd=${w[i]} ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\t# the option whose value is being typed, if any\n"
	"\tif [ -n \"$dashdash\" ]; then\n"
	"\t\t:\n"
	"\telif [ \"$cur\" = = ] && [[ $prev == --* ]]; then\n"
	"\t\topt=$prev cur=\n"
	"\telif [ \"$prev\" = = ] && [ \"$cword\" -ge 2 ]; then\n"
	"\t\topt=${w[cword - 2]}\n"
	"\telif [[ $cur == --*=* ]]; then\n"
	"\t\topt=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}\n"
	"\telif [ \"$cword\" -ge 2 ] && _sdperf_takes_value \"$prev\"; then\n"
	"\t\topt=$prev\n"
	"\tfi\n"
	"\tcase $opt in\n"
	"\t--*) opt=$(_sdperf_expand \"$opt\") ;;\n"
	"\t-?*) opt=-${opt: -1} ;;\n"
	"\tesac\n"
	"\tif [ -n \"$opt\" ]; then\n"
	"\t\t_sdperf_values \"$opt\" \"$cur\"\n"
	"\t\t[ -n \"$pre\" ] && COMPREPLY=(\"${COMPREPLY[@]/#/$pre}\")\n"
	"\telif [ -z \"$dashdash\" ] && [[ $cur == -* ]]; then\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -W \"$(_sdperf_options \"$cmd\")\" -- \"$cur\")\n"
	"\telif [ -z \"$cmd\" ]; then\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -W \"$_sdperf_commands\" -- \"$cur\")\n"
	"\telse\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
	"\tfi\n"
	"\treturn 0\n"
	"}\n\n"
	"complete -F _sdperf sdperf\n";
/* clang-format on */

/* "--a --b ..." of the options shown for commands mask (0: every one). */
static void long_names(unsigned mask, int valued_only, struct strbuf *out)
{
	size_t k, n = 0;

	for (k = 0; k < cli_nopts; k++) {
		const struct cli_opt *op = &cli_opts[k];
		if ((mask && !(op->cmds & mask)) || (valued_only && !op->arg))
			continue;
		strbuf_addf(out, "%s--%s", n++ ? " " : "", op->name);
	}
}

static void variables(struct strbuf *out)
{
	size_t k;

	strbuf_adds(out, "_sdperf_commands='report diff check summarize'\n"
	                 "_sdperf_all='");
	long_names(0, 0, out);
	strbuf_adds(out, "'\n_sdperf_valued='");
	long_names(0, 1, out);
	strbuf_adds(out, "'\n_sdperf_short_valued='");
	for (k = 0; k < cli_nopts; k++)
		if (cli_opts[k].id < 256 && cli_opts[k].arg)
			strbuf_addch(out, (char)cli_opts[k].id);
	strbuf_adds(out, "'\n\n_sdperf_options()\n{\n\tcase $1 in\n");
	strbuf_adds(out, "\treport) echo '");
	long_names(CLI_REPORT, 0, out);
	strbuf_adds(out, "' ;;\n\tdiff) echo '");
	long_names(CLI_DIFF, 0, out);
	strbuf_adds(out, "' ;;\n\tcheck) echo '");
	long_names(CLI_CHECK, 0, out);
	strbuf_adds(out, "' ;;\n\tsummarize) echo '");
	long_names(CLI_SUMMARIZE, 0, out);
	strbuf_adds(out, "' ;;\n\t*) echo \"$_sdperf_all\" ;;\n\tesac\n}\n\n");
}

/* The words a value may be: the row's, else the program's own lists. */
static void value_words(const struct cli_opt *op, struct strbuf *out)
{
	const char *const *l;
	struct strbuf names = STRBUF_INIT;
	const char *p, *sp;
	size_t i;

	if (op->words) {
		strbuf_adds(out, op->words);
	} else if (op->id == OPT_LANG) {
		for (l = i18n_languages(), i = 0; l[i]; i++)
			strbuf_addf(out, "%s%s", i ? " " : "", l[i]);
	} else if (op->id == OPT_THRESHOLD) {
		cli_threshold_names(&names);
		for (p = names.buf; *p; p = sp + (*sp == ' ')) {
			sp = p + strcspn(p, " ");
			strbuf_addf(out, "%s%.*s=", p == names.buf ? "" : " ",
			            (int)(sp - p), p);
		}
	}
	strbuf_release(&names);
}

/* _sdperf_values OPTION CUR: COMPREPLY for a value of OPTION. */
static void values(struct strbuf *out)
{
	static const char *const action[] = {
	    [CV_FILE] = "compopt -o filenames 2>/dev/null\n"
	                "\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$2\")",
	    [CV_DIR] = "compopt -o filenames 2>/dev/null\n"
	               "\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$2\")",
	    [CV_WORD] = "mapfile -t COMPREPLY < <(compgen -W \"$v\" -- "
	                "\"$2\")",
	    [CV_LIST] = "_sdperf_list \"$v\" \"$2\"",
	    [CV_PREFIX] = "compopt -o nospace 2>/dev/null\n"
	                  "\t\tmapfile -t COMPREPLY < <(compgen -W \"$v\" "
	                  "-- \"$2\")"};
	size_t k;

	strbuf_adds(out, "_sdperf_values()\n{\n\tlocal v\n\tcase $1 in\n");
	for (k = 0; k < cli_nopts; k++) {
		const struct cli_opt *op = &cli_opts[k];
		if (op->value == CV_NONE || op->value == CV_TEXT)
			continue;
		strbuf_adds(out, "\t");
		if (op->id < 256)
			strbuf_addf(out, "-%c | ", op->id);
		strbuf_addf(out, "--%s)\n\t\tv='", op->name);
		value_words(op, out);
		strbuf_addf(out, "'\n\t\t%s ;;\n", action[op->value]);
	}
	strbuf_adds(out, "\tesac\n}\n\n");
}

void cli_completion(const char *shell, struct strbuf *out)
{
	(void)shell; /* bash, the one cli_parse accepts */
	strbuf_adds(out, head);
	variables(out);
	values(out);
	strbuf_adds(out, body);
}
