//! Packets, links and topologies.

pub mod link;
mod packet;

pub use link::{Link, LinkSpec};
pub use packet::{HeaderOverhead, Packet, PacketKind, SackBlock, MAX_SACK_BLOCKS};
