//! Packets, links and the network they form.

mod host_link;
pub mod link;
mod network;
mod packet;
pub mod packet_trace;

pub use host_link::{Crossing, HostLink};
pub use link::{DiscLink, LinkSpec, Started};
pub use network::{Network, Route, BOTTLENECK};
pub use packet::{Ecn, HeaderOverhead, Packet, PacketKind, SackBlock, TcpEcnFlags, MAX_SACK_BLOCKS};
