//! `unimac manpage`: the manual page (roff), rendered from the argument
//! parser: one page, with a section per command (there are no
//! `unimac-COMMAND(1)` pages), and the exit status, environment and
//! examples.

use std::io::{self, Write};

use crate::fail::Fail;

/// The DESCRIPTION section's opening; the commands follow.
const DESCRIPTION: &str = r#".SH DESCRIPTION
unimac computes and checks message authentication codes built on universal
hashing (Bernstein's hash127, Shoup's evaluation and division hashes, MMH,
Square Hash, UMAC, VMAC), each with the forgery bound it is proven to have.
Tag files and check them as sha256sum does, seal a whole tree in a
manifest, authenticate a stream, compute single values for other
implementations, and choose a MAC for a use on this machine.
Its commands:
"#;

/// The sections after the commands': exit status, environment, examples.
const TAIL: &str = r#".SH "EXIT STATUS"
.TP
0
Success: every file tagged, every tag verified, the identity holds.
.TP
1
A check failed (a tag that does not verify, a file of a manifest changed,
missing or added, a stream that does not verify, an identity that does not
hold), or a file could not be read while the others were still processed.
.TP
2
unimac could not do what was asked: an error in the arguments, a key file
or counter file that cannot be used, a MAC too weak for the use without
\fB\-\-allow\-weak\fR; the message is one line on stderr.
.SH ENVIRONMENT
.TP
.B UNIMAC_FORCE_PORTABLE
Set to anything non\-empty: use the portable code only, never the CPU's
vector extensions (to test and compare both on one machine). The results
do not change, only the speed.
.TP
.B UNIMAC_DISABLE
A comma\-separated list of CPU features to leave unused although the CPU has
them, e.g. \fBavx512\fR (which also removes avx512ifma) to measure the AVX2
paths on a CPU with AVX\-512; unknown names are ignored. The results do not
change.
.SH EXAMPLES
.TP
Which MAC, on this machine, for messages of at most 4 KiB:
.B unimac advise \-\-max\-bytes 4KiB
.TP
A key, then tags of files and their check:
.B unimac keygen hash127\-aes \-o K
.br
.B unimac tag hash127\-aes \-\-key\-file K *.iso > TAGS
.br
.B unimac verify \-\-key\-file K TAGS
.TP
A nonce MAC with its counter file (or a counter for a key made before):
.B unimac keygen wc\-mmh32x4 \-o K \-\-counter C
.br
.B unimac keygen \-\-key\-file K2 \-\-counter C2
.br
.B unimac tag wc\-mmh32x4 \-\-key\-file K \-\-counter C FILE
.TP
A sealed manifest of a tree, and its check:
.B unimac seal \-\-key\-file K \-r DIR \-o MANIFEST
.br
.B unimac verify \-\-key\-file K MANIFEST
.TP
A backup as an authenticated stream:
.B tar c DIR | unimac stream \-k K > backup.uma
.br
.B unimac stream \-\-verify \-k K backup.uma | tar x
.TP
The forgery bound of a use:
.B unimac bound hash127\-aes \-\-max\-bytes 1.5MiB \-\-tags 2^32
"#;

/// unimac's manual page, from the argument parser: the command's page, then
/// a section per subcommand (hidden ones left out) with its arguments.
pub(crate) fn manpage(cmd: clap::Command) -> Result<(), Fail> {
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    // Text as roff takes it: backslashes escaped, no line taken as a request.
    let roff = |s: &str| {
        s.replace('\\', "\\e")
            .lines()
            .map(|l| if l.starts_with(['.', '\'']) { format!("\\&{l}") } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut text = String::from(DESCRIPTION);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        text.push_str(&format!(".TP\n\\fBunimac {}\\fR\n{}\n", roff(sub.get_name()), roff(&about)));
    }
    text.push_str(".PP\nEach command has a section of its own below (UNIMAC LIST, UNIMAC KEYGEN, ...), as 'unimac help COMMAND' shows it.\n");
    out.extend_from_slice(text.as_bytes());
    man.render_options_section(&mut out)?;
    let mut text = String::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        text.push_str(&format!(".SH \"UNIMAC {}\"\n", sub.get_name().to_uppercase()));
        let mut usage = sub.clone().bin_name(format!("unimac {}", sub.get_name()));
        text.push_str(&format!(".B {}\n.PP\n", roff(&usage.render_usage().to_string().replace("Usage: ", ""))));
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            text.push_str(&format!("{}\n", roff(&about.to_string())));
        }
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let mut names: Vec<String> = Vec::new();
            if let Some(s) = arg.get_short() {
                names.push(format!("\\fB-{s}\\fR"));
            }
            if let Some(l) = arg.get_long() {
                names.push(format!("\\fB--{}\\fR", roff(l)));
            }
            let values = arg
                .get_value_names()
                .map(|v| v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
                .unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
            let head = if names.is_empty() {
                format!("\\fI{}\\fR", roff(&values))
            } else if arg.get_action().takes_values() {
                format!("{} \\fI{}\\fR", names.join(", "), roff(&values))
            } else {
                names.join(", ")
            };
            let help = arg.get_long_help().or(arg.get_help()).map(|h| h.to_string()).unwrap_or_default();
            text.push_str(&format!(".TP\n{head}\n{}\n", roff(&help)));
        }
    }
    text.push_str(TAIL);
    out.extend_from_slice(text.as_bytes());
    man.render_version_section(&mut out)?;
    io::stdout().write_all(&out)?;
    Ok(())
}
