//! Two TCP profiles, each setting the rules where ns-3.44 and Linux part ways at once: a
//! scenario written from a Warbler preset carries Linux's, and behaving like ns-3 should not
//! take ten edits. A profile is not stored: it sets the fields, each of which stays
//! editable after (a scenario then matches neither, and says so).

use super::{CwrRules, DctcpRules, PrrRules, TcpConfig};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpProfile {
    /// ns-3.44's `TcpSocketBase` (the lab's defaults).
    Ns3,
    /// Linux's stack, as the Warbler presets' hosts.
    Linux,
}

impl TcpProfile {
    pub const ALL: [TcpProfile; 2] = [TcpProfile::Ns3, TcpProfile::Linux];
    /// The fields a profile sets (paths under `tcp`).
    pub const FIELDS: [&'static str; 10] = [
        "min_rto_ms",
        "prr",
        "karn_with_timestamps",
        "rate_snapshot_before_ack",
        "pace_initial_window",
        "impatient_rto",
        "rto_restart_in_disorder",
        "sacked_retransmissions_in_pipe",
        "cwr_rules",
        "dctcp_rules",
    ];

    pub fn tag(self) -> &'static str {
        match self {
            TcpProfile::Ns3 => "ns3-3.44",
            TcpProfile::Linux => "linux",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TcpProfile::Ns3 => "ns-3.44",
            TcpProfile::Linux => "Linux",
        }
    }

    pub fn from_tag(tag: &str) -> Result<TcpProfile, String> {
        Self::ALL.into_iter().find(|p| p.tag() == tag).ok_or_else(|| {
            let tags: Vec<&str> = Self::ALL.iter().map(|p| p.tag()).collect();
            format!(
                "TCP profile '{}' is not one of {}",
                crate::params::json::echo_value(tag),
                tags.join(", ")
            )
        })
    }

    /// Sets the ten fields; everything else is left as it is.
    pub fn apply(self, t: &mut TcpConfig) {
        let linux = self == TcpProfile::Linux;
        // RFC 6298 §2.4 and ns-3.44: a 1 s minimum RTO; Linux: TCP_RTO_MIN, 200 ms.
        t.min_rto_ms = if linux { 200.0 } else { 1000.0 };
        t.prr = if linux { PrrRules::Rfc9937 } else { PrrRules::Ns3 };
        t.karn_with_timestamps = !linux;
        t.rate_snapshot_before_ack = !linux;
        t.pace_initial_window = linux;
        // ns-3.44 restarts the timer in fast recovery on the first partial ACK only; Linux
        // on every ACK of new data (`tcp_rearm_rto`).
        t.impatient_rto = !linux;
        // ns-3.44's ProcessAck calls NewAck (the timer's restart) not from CA_DISORDER;
        // Linux rearms it on every cumulative ACK (`tcp_clean_rtx_queue`).
        t.rto_restart_in_disorder = linux;
        // ns-3.44's BytesInFlight keeps a SACKed retransmission; Linux's `tcp_sacktag_one`
        // takes it out of `retrans_out`.
        t.sacked_retransmissions_in_pipe = !linux;
        // ns-3.44's ReceivedAck / EnterCwr / DupAck answer an echo from any state, credit
        // PRR twice for it and start no fast recovery in CA_CWR; Linux's tcp_enter_cwr acts
        // from Open and Disorder, and tcp_fastretrans_alert leaves CWR for Recovery.
        t.cwr_rules = if linux { CwrRules::Linux } else { CwrRules::Ns3 };
        // ns-3.44's TcpDctcp receiver reads its prior RCV.NXT before each segment is taken
        // in, so its ACK at a change of CE state is a segment behind Linux's; its sender
        // starts the first α window at the first ACK, Linux's at the connection's start.
        t.dctcp_rules = if linux { DctcpRules::Linux } else { DctcpRules::Ns3 };
        // Not here yet: `grow_at_loss_exit`, Linux's rule too, moves the Warbler rows (the
        // cubic-bbr-vegas-3q baseline's jitter 26.9 → 39.8 ms; the paper's 26.7); the
        // incast preset sets it, where without it a window of one never grows.
    }

    /// The profile the ten fields match, if one does.
    pub fn of(t: &TcpConfig) -> Option<TcpProfile> {
        Self::ALL.into_iter().find(|p| {
            let mut probe = t.clone();
            p.apply(&mut probe);
            probe == *t
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn the_defaults_are_ns3s_and_the_warbler_presets_linuxs() {
        let d = TcpConfig::default();
        assert_eq!((TcpProfile::of(&d), d.cwr_rules), (Some(TcpProfile::Ns3), CwrRules::Ns3));
        let w = preset("cubic-vegas-2q", Some("warbler")).unwrap();
        assert_eq!(TcpProfile::of(&w.tcp), Some(TcpProfile::Linux));
    }

    #[test]
    fn a_profile_sets_its_ten_fields_and_nothing_else() {
        let w = preset("cubic-vegas-2q", Some("warbler")).unwrap().tcp;
        let mut t = w.clone();
        TcpProfile::Ns3.apply(&mut t);
        assert_eq!(TcpProfile::of(&t), Some(TcpProfile::Ns3));
        assert_eq!((t.mss_bytes, t.send_buffer_bytes), (w.mss_bytes, w.send_buffer_bytes), "the rest stays");
        let changed = serde_json::to_value(&t).unwrap();
        let before = serde_json::to_value(&w).unwrap();
        let differ: Vec<&String> = changed
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| changed[k.as_str()] != before[k.as_str()])
            .collect();
        assert_eq!(differ.len(), TcpProfile::FIELDS.len(), "{differ:?}");
        assert!(differ.iter().all(|k| TcpProfile::FIELDS.contains(&k.as_str())), "{differ:?}");
        // A field edited after matches neither.
        t.min_rto_ms = 300.0;
        assert_eq!(TcpProfile::of(&t), None);
    }

    #[test]
    fn an_unknown_profile_lists_the_known_ones() {
        let e = TcpProfile::from_tag("bsd").unwrap_err();
        assert!(e.contains("ns3-3.44") && e.contains("linux"), "{e}");
        assert_eq!(TcpProfile::from_tag("linux"), Ok(TcpProfile::Linux));
    }
}
