//! The JSON-lines loop: read a line, answer it, write the answer.

use crate::session::Session;
use std::io::{self, BufRead, BufReader, Read, Write};

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines answered.
    pub answered: usize,
    /// Lines answered with an error.
    pub failed: usize,
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum RunError {
    /// The input could not be read.
    Read(io::Error),
    /// The output could not be written.
    Write(io::Error),
}

/// Answers every non-empty line of `input` on `out`, one JSON line each, in `session`
/// (which keeps the shapes the lines define).
///
/// Lines are numbered from 1, blank lines included (they get no answer). A line that is
/// not UTF-8 gets an error answer, like any other malformed line. The output is flushed
/// whenever the input has nothing more buffered, so a program talking to the tool line by
/// line gets each answer at once while a file is still written in large blocks.
///
/// # Errors
/// [`RunError`] when reading or writing fails; the lines before were answered.
pub fn run<R: Read, W: Write>(
    input: &mut BufReader<R>,
    out: &mut W,
    session: &mut Session,
) -> Result<Summary, RunError> {
    let mut summary = Summary::default();
    let mut buf = Vec::new();
    for line in 1.. {
        if input.buffer().is_empty() {
            out.flush().map_err(RunError::Write)?;
        }
        buf.clear();
        if input.read_until(b'\n', &mut buf).map_err(RunError::Read)? == 0 {
            break;
        }
        let Some(reply) = answer_bytes(session, line, &mut buf) else { continue };
        summary.answered += 1;
        summary.failed += usize::from(!reply.ok);
        writeln!(out, "{}", reply.json).map_err(RunError::Write)?;
    }
    out.flush().map_err(RunError::Write)?;
    Ok(summary)
}

/// Lines longer than this have their buffer released once parsed, before their shapes are
/// built: a hull of a million points is a 60 MB line.
const LONG_LINE: usize = 1 << 20;

/// The reply to one raw line, or `None` for a blank one. The line is parsed first; a long
/// one's buffer is then released (and grows again for the next line).
fn answer_bytes(session: &mut Session, line: usize, raw: &mut Vec<u8>) -> Option<crate::answer::Reply> {
    let parsed = match std::str::from_utf8(raw) {
        Ok(text) => {
            // A byte-order mark may open a file written on Windows.
            let text = if line == 1 { text.trim_start_matches('\u{feff}') } else { text };
            let text = text.trim();
            if text.is_empty() {
                return None;
            }
            crate::answer::parse(text)
        }
        Err(e) => {
            let msg = format!("line is not valid UTF-8 (bad byte at column {})", e.valid_up_to() + 1);
            return Some(crate::answer::Reply {
                json: format!("{{\"line\":{line},\"error\":{}}}", serde_json::Value::from(msg)),
                ok: false,
            });
        }
    };
    if raw.capacity() > LONG_LINE {
        *raw = Vec::new();
    }
    Some(session.respond_parsed(line, parsed))
}
