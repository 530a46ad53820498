//! `unimac manpage`: the manual page (roff), rendered from the argument
//! parser.

use std::io::{self, Write};

use crate::fail::Fail;

/// unimac's manual page, from the argument parser: the command's page, then
/// a section per subcommand (hidden ones left out) with its arguments.
pub(crate) fn manpage(cmd: clap::Command) -> Result<(), Fail> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    // Text as roff takes it: backslashes escaped, no line taken as a request.
    let roff = |s: &str| {
        s.replace('\\', "\\e")
            .lines()
            .map(|l| if l.starts_with(['.', '\'']) { format!("\\&{l}") } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    };
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
    out.extend_from_slice(text.as_bytes());
    io::stdout().write_all(&out)?;
    Ok(())
}
