//! The example tools, one file each. Every tool is an ordinary fn marked `#[tool]`.

pub mod csv_summary;
pub mod exec_command;
pub mod list_dir;
pub mod read_file;
pub mod search_files;
pub mod search_tools;
pub mod update_plan;
