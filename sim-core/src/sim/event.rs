/// Everything that can happen. Packets are referred to by their slab index. Eight bytes, so
/// a calendar entry (time + event) is sixteen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A packet reaches the far end of the link it is crossing (its `hop` on its path).
    Arrive {
        pkt: u32,
    },
    /// A disc link finished serialising its current packet. Only scheduled where the end
    /// cannot be settled lazily (no propagation delay, or a disc asking for wake-ups; see
    /// `forward.rs`).
    TxDone {
        link: u32,
    },
    FlowStart {
        flow: u32,
    },
    FlowStop {
        flow: u32,
    },
    /// A traffic source's next arrival (or round) is due (`traffic.rs`).
    Arrival {
        source: u32,
    },
    SenderTimer {
        flow: u32,
    },
    /// Pacing lets the sender transmit again.
    PaceTimer {
        flow: u32,
    },
    ReceiverTimer {
        flow: u32,
    },
    Sample,
    /// The warm-up is over: the measured window opens.
    WindowOpen,
    /// A disc link's queue discipline asked to be woken (its `poll_at`).
    DiscWake {
        link: u32,
    },
    /// A disc link's one-packet device queue, stopped by a packet sent to the idle device,
    /// is woken (ns-3 `NetDeviceQueue::PacketDequeued`'s `ScheduleNow`).
    DeviceWake {
        link: u32,
    },
    /// The next timed change of the scenario is due.
    Change,
}
