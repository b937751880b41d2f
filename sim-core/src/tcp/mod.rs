//! TCP at segment granularity: one sender and one receiver per flow.
//!
//! Sequence numbers count segments (all full-sized but the last of a finite flow);
//! windows and pipe are in bytes. Loss recovery is SACK-based (RFC 6675 with PRR, RFC 6937)
//! as in ns-3, or NewReno partial ACKs (RFC 6582) when SACK is off.

mod config;
mod ooo;
mod profile;
mod prr;
pub mod rate;
pub mod receiver;
mod rtt;
mod runs;
pub mod scoreboard;
#[cfg(test)]
mod scoreboard_model;
pub mod sender;
pub mod timer;

pub use config::{CwrRules, DctcpRules, TcpConfig};
pub use profile::TcpProfile;
pub use prr::PrrRules;
pub use receiver::TcpReceiver;
pub use rtt::RttEstimator;
pub use sender::{Phase, SenderStats, TcpSender};
pub use timer::Timer;
