//! Reading and writing the survey file. Its type, its checks and its merge are the
//! analysis library's ([`kamisado_analysis::survey_file`]), one definition that the root
//! tests read the shipped survey with too; here are only the file system's parts: the
//! bounded reader, the output check and the atomic write.

use std::path::Path;

pub use kamisado_analysis::survey_file::{Entry, Run, SurveyFile};

use crate::failure::{Failure, Result};
use crate::output::write_atomically;

/// Reads a survey file, or a new one if `path` does not exist.
pub fn load_or_new(path: &Path) -> Result<SurveyFile> {
    crate::output::check_output(path, crate::output::OutputKind::Resumable)?;
    if !path.exists() {
        return Ok(SurveyFile::new());
    }
    load(path)
}

pub fn load(path: &Path) -> Result<SurveyFile> {
    let text = crate::input::read_text(path, "a survey file")?;
    SurveyFile::parse(&text, &path.display().to_string()).map_err(Failure::input)
}

/// Writes the file with fresh summaries, atomically.
pub fn save(file: &mut SurveyFile, path: &Path) -> Result<()> {
    write_atomically(path, file.to_text().as_bytes())
}
