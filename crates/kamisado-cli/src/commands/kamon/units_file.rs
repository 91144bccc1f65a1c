//! Reading and writing a split's results file. Its type, its checks, its merge and the
//! split itself are the analysis library's ([`kamisado_analysis::units_file`]), one
//! definition that the tests read the files with too; here are only the file system's
//! parts: the bounded reader, the output check and the atomic write.

use std::path::Path;

pub use kamisado_analysis::units_file::{
    bounds_name, Ask, Goal, Split, Summary, UnitResult, UnitsFile, UNKNOWN,
};

use crate::failure::{Failure, Result};
use crate::output::write_atomically;

/// Reads a results file, checking every result against the rules; the split it belongs
/// to comes with it.
pub fn load(path: &Path) -> Result<(UnitsFile, Split)> {
    let text = crate::input::read_text(path, "a units results file")?;
    UnitsFile::parse(&text, &path.display().to_string()).map_err(Failure::input)
}

/// Reads `path` if it exists; else a new file for `split`. A file of another split
/// (another root or depth) is refused.
pub fn load_or_new(path: &Path, split: &Split) -> Result<UnitsFile> {
    crate::output::check_output(path, crate::output::OutputKind::Resumable)?;
    if !path.exists() {
        return Ok(UnitsFile::new(split));
    }
    let (file, _) = load(path)?;
    file.same_split(split, &path.display().to_string())
        .map_err(Failure::input)?;
    Ok(file)
}

/// Writes the file with a fresh summary, atomically.
pub fn save(file: &mut UnitsFile, split: &Split, path: &Path) -> Result<()> {
    write_atomically(path, file.to_text(split).as_bytes())
}
