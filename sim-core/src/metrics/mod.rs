//! What a run records and how it is summarised. Definitions are shared by the UI and the CLI.

pub mod jain;
mod recorder;
pub mod stats;
mod summary;

pub use jain::jain_index;
pub use recorder::{DelayRecord, DropRecord, Recorder, Sample, Update};
pub use summary::{
    DropStats, FlowFacts, FlowSummary, PacketCounts, QueueStats, Summary, SummaryInput,
    ThroughputStats, ZoneShares,
};
