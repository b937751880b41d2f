//! What a run records and how it is summarised. Definitions are shared by the UI and the CLI.

pub mod counts;
pub mod export;
pub mod fair_shares;
pub mod fct;
pub mod figures;
pub mod histogram;
pub mod jain;
pub mod kde;
pub mod pings;
mod recorder;
pub mod stats;
mod summary;
pub mod ttest;
pub mod window;

pub use histogram::LogHistogram;
pub use jain::jain_index;
pub use recorder::{
    halve, DropRecord, Recorder, Sample, Thinned, Thinning, Update, TRACE_DROPS, TRACE_FLOW_SAMPLES,
    TRACE_LOG, TRACE_LOG_VALUES, TRACE_MARKS,
};
pub use summary::{
    DropStats, FlowFacts, FlowSummary, HopDelay, LinkSummary, LongFlowStats, PacketCounts, QueueStats,
    SeriesSummary, Summary, SummaryInput, ThroughputStats, TimeoutsByState, Zone,
};
pub use window::WindowStats;

/// FNV-1a over the summary's JSON: a short fingerprint to compare runs across targets.
pub fn summary_digest(s: &Summary) -> u64 {
    let json = serde_json::to_string(s).expect("summary serialises");
    json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}
