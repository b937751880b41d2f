//! One preset per paper experiment (and the bufferbloat lecture). Each has variants (the
//! algorithms compared) and texts: what is simulated, what the paper found, what this app
//! shows, why they differ, what to watch, with every number drawn from where it is true
//! ([`text`]).

mod ack_congestion;
mod bufferbloat;
mod dctcp;
mod dqn;
mod incast;
mod l4s;
mod parking_lot;
mod red_ecn;
pub(crate) mod red_study;
pub mod text;
mod two_bottlenecks;
mod udp_vs_tcp;
mod warbler;
mod warbler_mice;
mod web_workload;

use super::Scenario;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct PresetInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub variants: &'static [&'static str],
    pub default_variant: &'static str,
    /// The variants `compare` runs by default: the paper's columns (the rest are setups).
    pub compared: &'static [&'static str],
    /// Seeds `compare` runs by default (more where the paper reports a t-test).
    pub seeds: u32,
    /// The texts are templates whose numbers come from the scenario, this app's measured
    /// figures and the paper's ([`text`]); [`PresetInfo::texts`] fills them in.
    /// What is simulated.
    pub setting: &'static str,
    /// What the paper found ("" for a preset of this app's own).
    pub paper: &'static str,
    /// What this app shows.
    pub here: &'static str,
    /// Where the two differ, and why, in a sentence or two ("" where they agree).
    pub differs: &'static str,
    /// Short things to watch on the charts, for a lecture; one that begins `[t=T]` (T in
    /// seconds, a number or a `{p:…}` template) happens at that time of the run, and the
    /// charts mark it there.
    pub watch: &'static [&'static str],
}

/// A preset's texts with their numbers filled in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresetTexts {
    pub title: String,
    pub setting: String,
    pub paper: String,
    pub here: String,
    pub differs: String,
    pub watch: Vec<String>,
    /// Per watch point, the time of the run it happens at, if it has one.
    pub watch_at: Vec<Option<f64>>,
}

/// A watch point's time, if its text begins `[t=T]`, and the text without it.
fn timed(text: String) -> (Option<f64>, String) {
    let parsed = text.strip_prefix("[t=").and_then(|rest| {
        let (t, after) = rest.split_once(']')?;
        let t: f64 = t
            .trim()
            .trim_end_matches('s')
            .trim()
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite() && *t >= 0.0)?;
        Some((t, after.trim_start().to_string()))
    });
    match parsed {
        Some((t, rest)) => (Some(t), rest),
        None => (None, text),
    }
}

impl PresetInfo {
    /// Every template of the preset, for the checks.
    pub fn templates(&self) -> Vec<&'static str> {
        let mut t = vec![self.title, self.setting, self.paper, self.here, self.differs];
        t.extend(self.watch);
        t
    }

    /// The texts with their numbers filled in (a template that cannot be filled shows
    /// its error instead: the preset test fails first).
    pub fn texts(&self) -> PresetTexts {
        let r = |t: &str| text::render(self.name, self.default_variant, t).unwrap_or_else(|e| e);
        PresetTexts {
            title: r(self.title),
            setting: r(self.setting),
            paper: r(self.paper),
            here: r(self.here),
            differs: r(self.differs),
            watch: Vec::new(),
            watch_at: Vec::new(),
        }
        .with_watch(self.watch.iter().map(|w| timed(r(w))))
    }
}

impl PresetTexts {
    fn with_watch(mut self, points: impl Iterator<Item = (Option<f64>, String)>) -> PresetTexts {
        (self.watch_at, self.watch) = points.unzip();
        self
    }
}

pub fn preset_list() -> Vec<PresetInfo> {
    vec![
        PresetInfo {
            name: "bufferbloat",
            title: "Bufferbloat felt as page loads and pings: a CUBIC upload through a {p:bottleneck.rate_bps} Mbit/s router with {p:bottleneck.queue.limit} packets of buffer",
            variants: bufferbloat::VARIANTS,
            compared: bufferbloat::COMPARED,
            default_variant: "fifo",
            seeds: 1,
            setting: "One long CUBIC upload (base RTT {p:rtt[0]} ms) fills a {p:bottleneck.rate_bps} Mbit/s home-router link \
whose buffer holds {p:bottleneck.queue.limit} packets, more than a second of queue at that rate, as many routers and modems \
shipped. Beside it, as in the Mininet bufferbloat lab, a ping every {p:flows[1].cca.interval_ms} ms and a page of \
{p:flows[2].size_bytes} bytes fetched every {p:flows[2].arrivals.period_s} s over a new connection feel the queue as a user \
does. No device queue under the disc (Linux's BQL keeps the driver's queue that short), so the delay is where the charts show \
it. fifo-small has a buffer of {p:fifo-small:bottleneck.queue.limit} packets; fifo-cut shrinks the big one to \
{p:fifo-cut:changes[0].to} packets at {p:fifo-cut:changes[0].at_s} s, a timed change.",
            paper: "No paper: this app's own model of bufferbloat as Gettys and Nichols described it (2012), measured as the Mininet bufferbloat lab measures it (ping RTT and page-fetch time against the buffer size).",
            here: "With the big FIFO the upload keeps the buffer nearly full: packets wait {app:fifo:delay_ms} ms on average, a \
ping takes {app:fifo:ping_ms} ms (median) and a page {app:fifo:fetch_s} s to load. With {p:fifo-small:bottleneck.queue.limit} \
packets of buffer the ping takes {app:fifo-small:ping_ms} ms and the page {app:fifo-small:fetch_s} s; with the big buffer and \
CoDel {app:codel:ping_ms} ms and {app:codel:fetch_s} s, FQ-CoDel {app:fq-codel:ping_ms} ms and {app:fq-codel:fetch_s} s, \
PIE {app:pie:ping_ms} ms and {app:pie:fetch_s} s. Goodput is {app:fifo:mbps} Mbit/s with the big FIFO and \
{app:codel:mbps} with CoDel: the queue bought almost no throughput.",
            differs: "",
            watch: &["The ping RTT chart: about a second with the big FIFO, tens of milliseconds with CoDel, on the same link and buffer.", "The page-fetch times: each page waits behind the upload's queue at every round trip of its slow start.", "During a FIFO run, type {p:fifo-cut:changes[0].to} into Buffer: the change is marked on the charts and the delay falls within a second."],
        },
        PresetInfo {
            name: "parking-lot",
            title: "The parking lot: one long flow over three {p:bottleneck.rate_bps} Mbit/s links, one short flow on each",
            variants: parking_lot::VARIANTS,
            compared: parking_lot::COMPARED,
            default_variant: "fifo",
            seeds: 1,
            setting: "Three {p:bottleneck.rate_bps} Mbit/s links in series (bottleneck, hop2, hop3; {p:bottleneck.delay_ms} ms \
each, {p:bottleneck.queue.limit} packets of buffer, the variant's queue disc on every one). One long CUBIC flow crosses all \
three (base RTT {p:rtt[0]} ms), one short flow crosses each link alone (base RTT {p:rtt[1]} ms). The tables give each \
link's utilisation, queue and drops, and beside each flow its max-min and proportionally fair shares.",
            paper: "No paper: the textbook case (Bertsekas and Gallager's Data Networks; Kelly's proportional fairness, 1997).",
            here: "Max-min fairness would give every flow {app:fifo:mm_long_mbps} Mbit/s of goodput; proportional fairness \
{app:fifo:pf_long_mbps} Mbit/s to the long flow and the rest of each link to the short ones. With FIFOs the long flow gets \
{app:fifo:long_mbps} Mbit/s and each short flow {app:fifo:local_mbps}: less than either reference, since it pays a drop \
on every hop and grows its window once per longer round trip. RED gives it {app:red:long_mbps} Mbit/s and FQ-CoDel, which \
splits each link evenly between the flows that use it, {app:fq-codel:long_mbps}.",
            differs: "",
            watch: &["The per-flow table: the long flow's goodput against its max-min and proportionally fair shares.", "Every link is busy: the long flow's loss is the short flows' gain, not idle capacity.", "Compare FIFO and FQ-CoDel: per-link fair queueing brings the long flow to about half a link."],
        },
        PresetInfo {
            name: "two-bottlenecks",
            title: "Two bottlenecks in series: where does the queue build, and which AQM then matters?",
            variants: two_bottlenecks::VARIANTS,
            compared: two_bottlenecks::COMPARED,
            default_variant: "fq-codel-shaped",
            seeds: 1,
            setting: "Four long CUBIC uploads (base RTTs {p:rtt[0]} and {p:rtt[1]} ms) leave a home network over two links \
in series, each with a buffer of {p:bottleneck.queue.limit} packets: the home router's uplink (home) and the ISP's access \
link (modem, {p:links.modem.rate_bps} Mbit/s). fq-codel-shaped runs FQ-CoDel at the router, shaped to \
{p:fq-codel-shaped:bottleneck.rate_bps} Mbit/s, a little below the modem, whose queue is a FIFO; fq-codel-unshaped leaves \
the router at its LAN rate, {p:fq-codel-unshaped:bottleneck.rate_bps} Mbit/s. isp-fq-codel turns it round: a FIFO router at \
the LAN rate ahead of FQ-CoDel at the ISP; isp-fq-codel-shaped makes that FIFO router the slower link. The queue, delay \
and drop charts are the router's; the charts per link show both.",
            paper: "No paper: this app's own model of a home network's two queues (the advice of smart-queue-management \
guides: shape the router a little below the line rate).",
            here: "The queue builds at the slower link, and only that link's disc matters. Shaped below the modem, FQ-CoDel \
holds the router's queueing delay at {app:fq-codel-shaped:home_delay_ms} ms while the modem's FIFO stays empty, at \
{app:fq-codel-shaped:mbps} Mbit/s of goodput. Unshaped, the router's FQ-CoDel never sees a queue, and packets wait \
{app:fq-codel-unshaped:modem_delay_ms} ms in the modem's FIFO for {app:fq-codel-unshaped:mbps} Mbit/s: shaping gives up a \
tenth of the rate and saves nearly all of the delay. FQ-CoDel at the ISP does the same job \
({app:isp-fq-codel:modem_delay_ms} ms) unless a slower FIFO router sits ahead of it: then the queue, and its \
{app:isp-fq-codel-shaped:home_delay_ms} ms, are the router's.",
            differs: "",
            watch: &["The chart Queue at each link: the queue sits at one link, the slower one.", "fq-codel-shaped against fq-codel-unshaped: the same FQ-CoDel, a few milliseconds of delay or no effect at all.", "The flow table's delay hop by hop: where each flow's packets wait."],
        },
        PresetInfo {
            name: "ack-congestion",
            title: "ACK congestion: a download's ACKs behind an upload on a slow uplink",
            variants: ack_congestion::VARIANTS,
            compared: ack_congestion::COMPARED,
            default_variant: "with-upload",
            seeds: 1,
            setting: "One long CUBIC download over a {p:bottleneck.rate_bps} Mbit/s downlink (down) whose ACKs return over a \
{p:links.up.rate_bps} Mbit/s uplink (up), each line {p:bottleneck.delay_ms} ms with {p:bottleneck.queue.limit} packets of \
FIFO buffer (base RTT {p:rtt[0]} ms). In with-upload a CUBIC upload starts at {p:with-upload:flows[1].start_s} s: its data \
over the uplink, its ACKs over the downlink. with-upload-fq-codel puts FQ-CoDel on the uplink.",
            paper: "No paper of this app's three; the effect is Balakrishnan, Padmanabhan and Katz's (1997) and RFC 3449 \
§3's: on an asymmetric line a download goes no faster than its ACKs come back, and data queued on the uplink ahead of them \
slows it down. They proposed filtering and prioritising ACKs; fair queueing on the uplink, as here, does as much.",
            here: "Alone the download gets {app:download:flow0_mbps} Mbit/s. Beside the upload it gets \
{app:with-upload:flow0_mbps}: its ACKs wait {app:with-upload:up_delay_ms} ms in the uplink's FIFO behind the upload's \
data and its smoothed RTT is {app:with-upload:rtt_ms} ms instead of {app:download:rtt_ms}, though its own downlink is \
nearly idle. With FQ-CoDel on the uplink its ACKs get a queue of their own: {app:with-upload-fq-codel:flow0_mbps} \
Mbit/s, with the uplink's queueing delay at {app:with-upload-fq-codel:up_delay_ms} ms.",
            differs: "",
            watch: &["The network diagram: in with-upload the uplink's queue is full and the downlink's nearly empty.", "[t={p:with-upload:flows[1].start_s}] The goodput chart: the download's rate falls when the upload starts.", "with-upload-fq-codel: the download's rate comes back with the upload still running."],
        },
        PresetInfo {
            name: "web-workload",
            title: "Flow completion times of the web-search workload: FIFO, PIE and FQ-CoDel at {p:bottleneck.rate_bps} Mbit/s",
            variants: web_workload::VARIANTS,
            compared: web_workload::COMPARED,
            default_variant: "fifo-60",
            seeds: 1,
            setting: "Flows arrive at random (a Poisson process) at a share of a {p:bottleneck.rate_bps} Mbit/s link, each on a \
new CUBIC connection, with sizes drawn from the web-search workload measured by DCTCP's authors (most flows under a hundred \
kilobytes, most bytes in flows of megabytes). Base RTT {p:rtt[0]} ms; {p:bottleneck.queue.limit} packets of buffer. The \
variants set the load (the number in the name, per cent) and the disc, whose targets are scaled to the short RTT: PIE \
{p:pie-60:bottleneck.queue.target_ms} ms, FQ-CoDel {p:fq-codel-60:bottleneck.queue.target_ms} ms.",
            paper: "No paper: the figure datacentre papers plot (pFabric, SIGCOMM 2013; HPCC, SIGCOMM 2019): each flow's completion time over what it would take alone, by flow size.",
            here: "With a FIFO the smallest flows (under ten kilobytes) take {app:fifo-30:small_p95} times their ideal at \
the 95th percentile at the lightest load, {app:fifo-60:small_p95} at the middle one and {app:fifo-90:small_p95} at the \
heaviest: they wait behind the big flows' queue, and at the heaviest some lose a SYN. At the middle load PIE, whose \
controller updates only every {p:pie-60:bottleneck.queue.tupdate_ms} ms, leaves them at {app:pie-60:small_p95}; FQ-CoDel, \
which serves a new flow's queue first, brings them to {app:fq-codel-60:small_p95}. The median slowdown of all flows is \
{app:fifo-60:all_p50} with the FIFO and {app:fq-codel-60:all_p50} with FQ-CoDel, at the same goodput \
({app:fifo-60:mbps} Mbit/s).",
            differs: "",
            watch: &["The slowdown-by-size chart: the small flows' tail is where the queue disc matters.", "Raise the load in the editor (Arrivals › Load): the FIFO's small-flow tail grows fastest.", "The flows table groups the connections: a pool carries the transfers as they arrive."],
        },
        PresetInfo {
            name: "incast",
            title: "Incast: synchronised answers through one shallow switch port",
            variants: incast::VARIANTS,
            compared: incast::COMPARED,
            default_variant: "n16",
            seeds: 1,
            setting: "An aggregator reads a block striped over N servers (the number in the variant's name), asking for \
the next block once every answer is in; each server answers its share ({p:flows[0].size_bytes} bytes with sixteen, \
{p:n64:flows[0].size_bytes} with sixty-four) over its own {p:flows[0].access_rate_bps} Mbit/s link into one switch port \
of {p:bottleneck.rate_bps} Mbit/s with {p:bottleneck.queue.limit} packets of buffer, base RTT {p:rtt[0]} ms. The rto1 \
variants lower the minimum RTO from {p:tcp.min_rto_ms} ms to {p:n64-rto1:tcp.min_rto_ms} ms, and the delayed-ACK timer \
from {p:tcp.delayed_ack_timeout_ms} ms to {p:n64-rto1:tcp.delayed_ack_timeout_ms} ms.",
            paper: "No paper figure reproduced here: the collapse Vasudevan et al. measured (SIGCOMM 2009) with this \
fixed-block workload, and its fix, fine-grained timers.",
            here: "One server alone gets {app:n1:mbps} Mbit/s of the {p:bottleneck.rate_bps}. With a {p:tcp.min_rto_ms} ms \
minimum RTO four servers get {app:n4:mbps}, sixteen {app:n16:mbps} and sixty-four {app:n64:mbps}: the answers overflow \
the port together, the more servers the fewer segments each has to recover a loss with, a server that loses its last \
segments or a retransmission waits a whole minimum RTO, and the next request waits for it. With the short timers \
sixty-four servers get {app:n64-rto1:mbps} Mbit/s, despite more drops ({app:n64-rto1:drops} against {app:n64:drops}). \
The connections are persistent: a window carries over from one answer to the next, and restarts only after an idle RTO.",
            differs: "This app's TCP has no RACK-TLP (RFC 8985), which today's Linux has and the paper's kernels had not: a lost \
retransmission or a lost tail waits for the timer. With a fixed answer per server instead (Chen et al., WREN 2009; \
edit Flows › Size) the total grows with N and goodput collapses, then partly recovers as N grows.",
            watch: &["Goodput over time: bursts of answers, then silence while one server waits out its timeout.", "The drops chart: every round's losses come in the first microseconds of the answers.", "Set TCP › Minimum RTO in the editor and watch the silences shrink."],
        },
        PresetInfo {
            name: "udp-vs-tcp",
            title: "An unresponsive UDP flow among TCP flows: FIFO, RED, FQ-CoDel and a switch port with Warbler",
            variants: udp_vs_tcp::VARIANTS,
            compared: udp_vs_tcp::COMPARED,
            default_variant: "fifo",
            seeds: 1,
            setting: "A UDP source sends at {p:flows[1].cca.rate_bps} Mbit/s, a little over its fair share, whatever the network \
does, beside {p:flows[0].count} CUBIC flows on a {p:bottleneck.rate_bps} Mbit/s link, base RTT {p:rtt[0]} ms. The variants \
change the disc: FIFO, RED, FQ-CoDel, and a two-queue switch port with a static mapping (switch) or with Warbler clustering \
the flows (warbler).",
            paper: "No paper figure reproduced here: RFC 7928 §5 asks how an AQM treats unresponsive traffic, and the Warbler paper names it as future work (§6.2).",
            here: "With a FIFO the UDP flow gets {app:fifo:udp_mbps} Mbit/s and each TCP flow {app:fifo:tcp_mbps}; RED gives \
{app:red:udp_mbps} and {app:red:tcp_mbps}; FQ-CoDel holds UDP to {app:fq-codel:udp_mbps} and gives each TCP flow \
{app:fq-codel:tcp_mbps}. The static switch port gives UDP {app:switch:udp_mbps}, Warbler {app:warbler:udp_mbps} \
(TCP flows {app:warbler:tcp_mbps} each): Warbler sees only backlogs, and a flow that never backs off holds the largest.",
            differs: "",
            watch: &["The goodput shares: with FIFO and RED the UDP flow takes what it sends; flow queueing gives back the rest.", "The Warbler panel: which queue the UDP flow lands in, and who shares it."],
        },
        PresetInfo {
            name: "red-study",
            title: "RED vs Adaptive RED vs Gentle RED ({p:flows[0].count} CUBIC senders, {p:bottleneck.rate_bps} Mbit/s)",
            variants: red_study::VARIANTS,
            compared: red_study::COMPARED,
            default_variant: "red",
            seeds: 1,
            setting: "Palagashvili et al.'s dumbbell: {p:flows[0].count} CUBIC senders ({p:flows[0].access_rate_bps} Mbit/s, \
{p:flows[0].access_delay_ms} ms access) share a {p:bottleneck.rate_bps} Mbit/s, {p:bottleneck.delay_ms} ms bottleneck with \
minTh {p:bottleneck.queue.min_th}, maxTh {p:bottleneck.queue.max_th}, a {p:bottleneck.queue.limit}-packet limit and \
{p:tcp.mss_bytes}-byte segments. The red, ared and gentle variants are what ns-3 runs: the disc over ns-3's \
{p:bottleneck.nic_queue_packets}-packet device queue, ARED with ns-3's default Gentle on. The -nic1 variants use ns-3's \
smallest device queue ({p:red-nic1:bottleneck.nic_queue_packets} packet), -nonic none at all; ared-nogentle switches Gentle off.",
            paper: "All three deliver about {paper:red-study/red:throughput_mbps} Mbit/s. RED drops the most \
({paper:red-study/red:drops} against {paper:red-study/ared:drops} for ARED and {paper:red-study/gentle:drops} for Gentle) and \
has the steadiest throughput (CV {paper:red-study/red:cv_pct} %); Gentle keeps the shortest queue \
({paper:red-study/gentle:queue_mean} packets).",
            here: "The same goodput in every variant ({app:red:mbps} Mbit/s: the rest is headers). RED drops the most \
({app:red:drops} against {app:ared:drops} and {app:gentle:drops}); the disc's mean queue is {app:red:queue_mean}, \
{app:ared:queue_mean} and {app:gentle:queue_mean} packets. But a packet waits {app:red:delay_ms} ms at the bottleneck under \
RED, {app:red:device_ms} ms of it in the device queue: the disc only fills once that queue is full, so the disc's few packets \
are a small part of the wait (compare the -nonic variants). Throughput CV: {app:red:cv_pct} % for RED.",
            differs: "Goodput here is in-order delivery sampled every {p:sample_interval_s} s, as ns-3's PacketSink counts it: a \
flow stalls for a round trip after each loss and then releases what was held, so the CV is about three times the paper's. \
ARED and Gentle drop about a third less than published, as ns-3.44 itself does on this scenario (tests/ns3/COMPARISON.md).",
            watch: &["The queue chart: a few packets in the disc, the device queue under it nearly full; the delay chart shows where the wait is.", "The EWMA average against the shaded [minTh, maxTh) and [maxTh, 2·maxTh) bands: RED's forced zone starts at maxTh, Gentle's at 2·maxTh.", "The drops: RED's come all the time, ARED's and Gentle's in clusters with pauses."],
        },
        PresetInfo {
            name: "dctcp-vs-cubic",
            title: "DCTCP and CUBIC through a step-marking port at {p:bottleneck.rate_bps} Mbit/s",
            variants: dctcp::VARIANTS,
            compared: dctcp::COMPARED,
            default_variant: "dctcp",
            seeds: 1,
            setting: "Two long flows share a {p:bottleneck.rate_bps} Mbit/s switch port, base RTT {p:rtt[0]} ms, buffer \
{p:bottleneck.queue.limit} packets. The port marks an ECN-capable arrival CE when more than {p:bottleneck.queue.k_packets} \
packets are queued and drops any other (DCTCP's rule). dctcp: two DCTCP flows; cubic-step: two CUBIC flows without ECN \
through the same port; cubic-fifo: the CUBIC flows through a plain FIFO of the same buffer; mixed: one DCTCP and one \
CUBIC flow through the marking port.",
            paper: "No paper figure reproduced here: DCTCP's claim (Alizadeh et al., SIGCOMM 2010; RFC 8257) that the \
queue stays near the threshold at full throughput, and the unfairness to classic flows that L4S (RFC 9330) was made for.",
            here: "Two DCTCP flows carry {app:dctcp:mbps} Mbit/s with a mean queue of {app:dctcp:queue_mean} packets \
and no drop ({app:dctcp:drops}): each echo trims a window by half of α, the marked share, once per round trip. CUBIC through the FIFO carries \
{app:cubic-fifo:mbps} Mbit/s but keeps {app:cubic-fifo:queue_mean} packets queued; through the marking port it is dropped \
({app:cubic-step:drops} drops) for a queue of {app:cubic-step:queue_mean}. Together the DCTCP flow takes \
{app:mixed:flow0_mbps} Mbit/s and the CUBIC flow is left almost nothing (Jain's index {app:mixed:jfi}): CUBIC halves on \
every drop at the threshold, where DCTCP only trims.",
            differs: "",
            watch: &["The queue chart: DCTCP's queue hovers at the threshold, CUBIC's fills the FIFO.", "The flows table: who gets the link in mixed.", "Switch a flow group's ECN on in the editor: CUBIC is then marked, not dropped, and halves on each echo."],
        },
        PresetInfo {
            name: "red-ecn",
            title: "RED and CoDel with and without ECN: four CUBIC uploads at {p:bottleneck.rate_bps} Mbit/s",
            variants: red_ecn::VARIANTS,
            compared: red_ecn::COMPARED,
            default_variant: "red-ecn",
            seeds: 1,
            setting: "Four CUBIC uploads (base RTT {p:rtt[0]} ms) through the lecture's {p:bottleneck.rate_bps} Mbit/s router, \
buffer {p:bottleneck.queue.limit} packets. red: gentle RED with minTh {p:bottleneck.queue.min_th} and maxTh \
{p:bottleneck.queue.max_th} packets, dropping. red-ecn: the same RED marking ECN-capable packets CE instead of an early drop \
(ns-3's UseEcn), the senders asking for ECN at the handshake (RFC 3168), and RED still dropping in its hard zone (UseHardDrop, \
ns-3's default); red-ecn-nohard marks there too. codel and codel-ecn: CoDel at its defaults, dropping or marking.",
            paper: "No paper figure: RFC 3168's promise that a mark in place of a drop keeps the queue an AQM wants \
without the losses, the retransmissions and the timeouts.",
            here: "RED drops {app:red:drops} packets after the warm-up ({app:red:losses} in the whole run) for a mean queue of \
{app:red:queue_mean} packets. With ECN it marks {app:red-ecn:marks} packets and drops {app:red-ecn:drops} after the warm-up, \
for a queue of {app:red-ecn:queue_mean}: an echo halves a window as a loss would, once per round trip, and nothing is resent. \
Its {app:red-ecn:losses} losses all come in slow start, when the average passes the hard zone; without the hard drop no packet \
is lost ({app:red-ecn-nohard:losses}). CoDel drops {app:codel:drops}, or marks {app:codel-ecn:marks} and loses \
{app:codel-ecn:losses}. Goodput does not move: {app:red:mbps} Mbit/s with drops, {app:red-ecn:mbps} with marks.",
            differs: "",
            watch: &["The drop chart: with ECN the marks take the drops' place, at the same times.", "The flows table: retransmissions and timeouts fall to none with ECN.", "Untick the flow group's ECN in the editor: the senders no longer ask for it, and RED drops again."],
        },
        PresetInfo {
            name: "l4s-coexistence",
            title: "TCP Prague and CUBIC at {p:bottleneck.rate_bps} Mbit/s: DualPI2 against one queue (L4S)",
            variants: l4s::VARIANTS,
            compared: l4s::COMPARED,
            default_variant: "dualpi2",
            seeds: 1,
            setting: "One TCP Prague and one CUBIC flow share a {p:bottleneck.rate_bps} Mbit/s link, base RTT {p:rtt[0]} ms, \
buffer {p:bottleneck.queue.limit} packets, for {p:duration_s} s: the L4S team's coexistence test. dualpi2: Linux's DualPI2 at \
its defaults (target {p:bottleneck.queue.target_ms} ms, L4S step {p:bottleneck.queue.step_ms} ms, coupling k = \
{p:bottleneck.queue.coupling}); Prague's ECT(1) packets wait in the L queue, CUBIC's in the C queue. fifo: one tail-drop FIFO. \
pie: PIE dropping. pie-ecn: PIE marking ECN-capable packets while its probability is low (RFC 8033 §5.1), as Prague's are; \
CUBIC does not ask for ECN.",
            paper: "The L4S team's run of this setting (IETF 109, 2020; their Linux DualPI2 and Prague) measured Prague at \
{paper:l4s:prague_mbps} and CUBIC at {paper:l4s:cubic_mbps} Mbit/s, Prague's queue about {paper:l4s:l_queue_ms} ms and \
CUBIC's about {paper:l4s:c_queue_ms} ms. RFC 9330 §1 sets L4S's goal at under a millisecond of queue on average; RFC 9332 \
Appendix C's model puts the two rates within a small factor at this RTT.",
            here: "Through DualPI2 Prague gets {app:dualpi2:flow0_mbps} and CUBIC {app:dualpi2:flow1_mbps} Mbit/s; Prague's \
packets wait {app:dualpi2:flow0_p50_ms} ms (median) in the L queue, CUBIC's {app:dualpi2:flow1_p50_ms} ms in the C queue. \
The link marks {app:dualpi2:marks} of Prague's packets (p_CL = k·p') and drops {app:dualpi2:drops} of CUBIC's \
(p_C = p'²). Through one FIFO both wait {app:fifo:flow1_p50_ms} ms, and Prague, never marked, halves on a loss as Reno does \
while CUBIC grows faster: {app:fifo:flow0_mbps} against {app:fifo:flow1_mbps} Mbit/s. PIE dropping holds both at \
{app:pie:flow1_p50_ms} ms ({app:pie:flow0_mbps} against {app:pie:flow1_mbps}). PIE marking gives Prague marks where CUBIC \
gets drops at the same probability: Prague trims by half of α where CUBIC cuts its window, and takes {app:pie-ecn:flow0_mbps} \
against {app:pie-ecn:flow1_mbps} Mbit/s, the starvation the coupling was made to end (RFC 9332 §1).",
            differs: "Prague waits less here than in the team's run: this app paces Prague one packet at a time, where \
Linux sends bursts of segments (TSO) that queue briefly. Prague's lead over CUBIC is smaller than theirs; the ratio follows \
Prague's growth scaling and its exit from slow start, which this model takes from the team's code with the simplifications \
listed in cc/prague.rs.",
            watch: &["The queue chart: the L queue stays near empty while the C queue holds about the target.", "The DualPI2 delay chart: each queue's head delay; the probability chart: p_CL marks Prague, p_C hits CUBIC.", "The flows table: the marks go to Prague, the drops to CUBIC; switch to pie-ecn and CUBIC starves."],
        },
        PresetInfo {
            name: "rtt-unfair",
            title: "Two NewReno flows, RTT {p:rtt[0]} vs {p:rtt[1]} ms, at {p:bottleneck.rate_bps} Mbit/s (Warbler §5.3)",
            variants: warbler::RTT_UNFAIR_VARIANTS,
            compared: warbler::RTT_UNFAIR_VARIANTS,
            default_variant: "fifo",
            seeds: 1,
            setting: "The Warbler paper's RTT-unfairness case: two NewReno flows with base RTTs of {p:rtt[0]} and {p:rtt[1]} ms \
share a {p:bottleneck.rate_bps} Mbit/s port: one {p:bottleneck.queue.limit}-cell FIFO, FQ-CoDel, Cebinae, ideal FQ or Warbler \
on two queues of {p:warbler:bottleneck.queue.queue_limit_cells} cells.",
            paper: "With one FIFO the shorter-RTT flow takes most of the link; FQ-CoDel improves fairness with throughput \
oscillations; Cebinae holds Jain's index near one but leaves capacity unused (about {paper:warbler:cebinae_mbps} Mbit/s); \
ideal FQ is the upper bound; Warbler is as fair as Cebinae.",
            here: "Jain's index {app:fifo:jfi} with FIFO, {app:fq-codel:jfi} with FQ-CoDel, {app:cebinae:jfi} with Cebinae at \
{app:cebinae:mbps} Mbit/s, {app:fq:jfi} with ideal FQ and {app:warbler:jfi} with Warbler at the full link.",
            differs: "Cebinae leaves more of the link unused than in the paper: this preset's Cebinae recomputes its rates every \
{p:cebinae:bottleneck.queue.recompute_rounds} rounds of {p:cebinae:bottleneck.queue.round_ms} ms, shorter than the \
authors' own configurations use.",
            watch: &["Jain's index over time: FIFO lets the shorter-RTT flow take most of the link.", "The per-flow delay: in one FIFO both flows wait the same; FQ and Warbler decouple them.", "Cebinae's aggregate goodput stays below the link rate."],
        },
        PresetInfo {
            name: "cubic-vegas-2q",
            title: "CUBIC and Vegas on two switch queues, Warbler from {p:warbler:bottleneck.queue.control.activation_s} s (Warbler §5.1)",
            variants: warbler::WITH_AND_WITHOUT,
            compared: warbler::WITH_AND_WITHOUT,
            default_variant: "baseline",
            seeds: 1,
            setting: "Two {p:bottleneck.queue.queue_limit_cells}-cell queues of a {p:bottleneck.rate_bps} Mbit/s Tofino port, each \
holding one CUBIC and one Vegas flow (RTT {p:rtt[0]} ms), served round robin: the paper's load-balanced baseline. In the \
warbler variant the switch CPU starts clustering at {p:warbler:bottleneck.queue.control.activation_s} s.",
            paper: "CUBIC fills its queue and takes most of the queue's half of the link: Jain's index about \
{paper:warbler:fig4_jfi_before} before Warbler starts and about {paper:warbler:fig4_jfi_after} after (Fig. 4).",
            here: "Jain's index {app:baseline:jfi} without Warbler; with it, the two Vegas flows share one queue and the CUBIC \
flows the other, and the index over the whole run rises to {app:warbler:jfi} (it reaches about one within seconds of \
activation: aqmsim compare prints the index before and after).",
            differs: "",
            watch: &["Before activation CUBIC fills each queue and Vegas starves.", "[t={p:warbler:bottleneck.queue.control.activation_s}] The 'Warbler on' marker: the flow → queue map shows the Vegas flows moving together, the weights follow.", "Jain's index climbs within a few seconds of activation."],
        },
        PresetInfo {
            name: "cubic-bbr-vegas-3q",
            title: "CUBIC, BBR and Vegas on three switch queues (Warbler §5.2, Table 2)",
            variants: warbler::WITH_AND_WITHOUT,
            compared: warbler::WITH_AND_WITHOUT,
            default_variant: "baseline",
            seeds: 1,
            setting: "Three {p:bottleneck.queue.queue_limit_cells}-cell queues at {p:bottleneck.rate_bps} Mbit/s, two CUBIC, two BBR \
and two Vegas flows (RTT {p:rtt[0]} ms), two algorithms per queue; Warbler runs from the start in the warbler variant.",
            paper: "Table 2 without Warbler: Jain's index {paper:table2/without:jfi}, mean delay {paper:table2/without:delay_ms} ms, \
jitter {paper:table2/without:jitter_ms} ms, {paper:table2/without:buffer_cells} cells of buffer; with Warbler \
{paper:table2/with:jfi}, {paper:table2/with:delay_ms} ms, {paper:table2/with:jitter_ms} ms and \
{paper:table2/with:buffer_cells} cells: each algorithm gets its own queue.",
            here: "Without Warbler: Jain's index {app:baseline:jfi}, delay {app:baseline:delay_ms} ms, jitter \
{app:baseline:jitter_ms} ms, {app:baseline:buffer_cells} cells; with Warbler {app:warbler:jfi}, {app:warbler:delay_ms} ms, \
{app:warbler:jitter_ms} ms and {app:warbler:buffer_cells} cells.",
            differs: "The buffers are much fuller here: CUBIC fills its queue, where the paper's small buffers suggest its hosts' \
socket buffers or NIC pacing held CUBIC back; so our delays are longer, while the with/without ratios match.",
            watch: &["The per-flow backlog KDE per queue (Fig. 5) and the cumulative backlog (Fig. 6).", "With Warbler: Vegas flows land in the first queue, CUBIC in the last (lowest centroid first), BBR between.", "Table 2's figures: Jain's index, mean delay, jitter and buffer, without vs with Warbler."],
        },
        PresetInfo {
            name: "warbler-upstream",
            title: "Warbler on one hop of two: §5.2's switch port behind an upstream FIFO",
            variants: warbler::UPSTREAM_VARIANTS,
            compared: warbler::UPSTREAM_VARIANTS,
            default_variant: "warbler",
            seeds: 1,
            setting: "§5.2's six flows (two CUBIC, two BBR, two Vegas, RTT {p:rtt[0]} ms) cross two hops: an upstream FIFO \
link ({p:links.upstream.rate_bps} Mbit/s, {p:links.upstream.queue.limit} packets) and then the switch port \
({p:bottleneck.rate_bps} Mbit/s, three {p:bottleneck.queue.queue_limit_cells}-cell queues), which stays their bottleneck; \
Warbler runs on the port in the warbler variants. In the cross- variants two more CUBIC flows share the upstream link \
(then {p:cross-baseline:links.upstream.rate_bps} Mbit/s) and leave after it. The flow tables' queue and delay columns are \
the port's; the links table gives each hop's delay and Jain's index among the flows crossing it.",
            paper: "No paper: Warbler's evaluation has the port alone on the path (§5.2, the cubic-bbr-vegas-3q preset).",
            here: "Where the upstream FIFO only absorbs the bursts of the senders' {p:flows[0].access_rate_bps} Mbit/s links \
({app:warbler:upstream_delay_ms} ms of queueing there), Warbler's isolation survives: Jain's index among the port's flows \
goes from {app:baseline:port_jfi} to {app:warbler:port_jfi}, as on the port alone. Where two more CUBIC flows keep the \
upstream FIFO full ({app:cross-warbler:upstream_delay_ms} ms), every port flow waits in that one shared queue first, the \
Vegas flows back off at its delay, and Warbler cannot help: {app:cross-baseline:port_jfi} without it, \
{app:cross-warbler:port_jfi} with. An AQM isolates only the flows of its own queue.",
            differs: "",
            watch: &["The links table: the upstream hop's delay, tiny alone, tens of milliseconds with cross traffic.", "Jain's index at the port, with and without Warbler, in both cases.", "The flow table: the Vegas flows' goodput in the cross- variants."],
        },
        PresetInfo {
            name: "warbler-mice",
            title: "Warbler with mice: §5.2's six long flows and web-search short flows on the three-queue port",
            variants: warbler_mice::VARIANTS,
            compared: warbler_mice::COMPARED,
            default_variant: "warbler",
            seeds: 1,
            setting: "The six long flows of §5.2 (two each of CUBIC, BBR and Vegas) on the port's three queues, and short \
flows arriving at random at {p:flows[3].arrivals.load} of the port's rate, sizes from the web-search workload, each on a new \
connection. The port's count-min sketch ({p:bottleneck.queue.cms_depth} rows of {p:bottleneck.queue.cms_width} counters) \
calls a connection long after {p:bottleneck.queue.long_flow_threshold_packets} packets (§4, step one; §6.1); until then it \
waits in the default queue, and only long flows are clustered.",
            paper: "No paper figure: the paper's experiments have long flows only, and it names the sketch's threshold (§6.1) without measuring the mice.",
            here: "The sketch calls every connection right here: precision {app:warbler:precision} and recall \
{app:warbler:recall} against each connection's exact count (wide enough for the connections open at once). With the static \
load-balanced mapping the short flows under ten kilobytes take {app:baseline:small_p50} times their ideal (median): their \
default queue holds a CUBIC flow's standing queue. With Warbler {app:warbler:small_p50}, while the long flows' Jain's index \
goes from {app:baseline:jfi} to {app:warbler:jfi}.",
            differs: "",
            watch: &["The slowdown chart: the small flows' median and tail with and without Warbler.", "The Warbler panel: only long flows are clustered; a short flow never leaves the default queue."],
        },
        PresetInfo {
            name: "vegas-newreno-mix",
            title: "Vegas/NewReno mixes with eight BDP of buffer (Warbler §5.3 Fig. 11)",
            variants: warbler::MIX_VARIANTS,
            compared: warbler::MIX_VARIANTS,
            default_variant: "7v1n-fifo",
            seeds: 1,
            setting: "Seven Vegas and one NewReno, six and two, one and seven (RTT {p:rtt[0]} ms) at {p:bottleneck.rate_bps} Mbit/s \
with {p:bottleneck.queue.limit} cells of buffer (eight BDP): one FIFO queue, FQ-CoDel, Cebinae, ideal FQ, or two, four \
or eight round-robin queues sharing it, load-balanced or run by Warbler.",
            paper: "FIFO has a low Jain's index, FQ-CoDel helps somewhat, Cebinae helps when NewReno is the minority, ideal FQ \
is the upper bound, and more queues approach it once flows are isolated.",
            here: "With seven Vegas and one NewReno: Jain's index {app:7v1n-fifo:jfi} with FIFO, {app:7v1n-fq-codel:jfi} with \
FQ-CoDel, {app:7v1n-cebinae:jfi} with Cebinae, {app:7v1n-2q:jfi} with two load-balanced queues and {app:7v1n-warbler-2q:jfi} \
with Warbler on two.",
            differs: "Our FQ-CoDel is RFC 8290's with its many flow queues, so it is nearly ideal FQ; the paper's FQ-CoDel ran in a \
single hardware queue, which is why it helped only somewhat there.",
            watch: &["Jain's index by queue count: more queues help once each aggressive flow is isolated.", "Warbler with two queues already separates the NewReno flows from the Vegas ones."],
        },
        PresetInfo {
            name: "dqn-dumbbell",
            title: "A DQN congestion control against CUBIC and NewReno (one sender, {p:bottleneck.rate_bps} Mbit/s)",
            variants: dqn::VARIANTS,
            compared: dqn::VARIANTS,
            default_variant: "dqn",
            seeds: 20,
            setting: "The DQN paper's dumbbell: one sender on a {p:flows[0].access_rate_bps} Mbit/s access link, a \
{p:bottleneck.rate_bps} Mbit/s, {p:bottleneck.delay_ms} ms bottleneck with a {p:bottleneck.queue.limit}-packet drop-tail queue, \
{p:duration_s} s. The frozen agent (the model shipped with AQM Lab, trained with aqmsim train) picks one of four window \
changes every {p:flows[0].cca.step_ms} ms.",
            paper: "Throughput {paper:dqn/cubic:throughput_pct} % against CUBIC's and {paper:dqn/newreno:throughput_pct} % against \
NewReno's (not significant), RTT {paper:dqn/cubic:rtt_pct} % and {paper:dqn/newreno:rtt_pct} %, and near-zero losses where \
CUBIC loses about {paper:dqn/cubic:losses} packets.",
            here: "The agent delivers {app:dqn:mbps} Mbit/s at a mean RTT of {app:dqn:rtt_ms} ms with {app:dqn:losses} losses; \
CUBIC {app:cubic:mbps} Mbit/s at {app:cubic:rtt_ms} ms with {app:cubic:losses} losses, NewReno {app:newreno:mbps} Mbit/s at \
{app:newreno:rtt_ms} ms.",
            differs: "The RTT gain is much larger here because CUBIC and NewReno fill this preset's \
{p:bottleneck.queue.limit}-packet buffer while the agent keeps a few packets queued; the paper does not state its buffers, \
and its shorter queues would leave less delay to save.",
            watch: &["The RTT: CUBIC and NewReno fill the buffer (half a second of queue); the agent holds a few packets.", "Cumulative drops: CUBIC loses hundreds at the end of slow start, the agent none.", "The agent's decisions chart: mostly 'hold' once the link is full."],
        },
    ]
}

/// Builds a preset's scenario; `variant` None picks the default variant.
pub fn preset(name: &str, variant: Option<&str>) -> Result<Scenario, String> {
    let info = preset_list()
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("unknown preset '{}'; known: {}", crate::params::echo(name), names()))?;
    let v = variant.unwrap_or(info.default_variant);
    if !info.variants.contains(&v) {
        return Err(format!(
            "preset '{name}' has no variant '{}'; variants: {}",
            crate::params::echo(v),
            info.variants.join(", ")
        ));
    }
    Ok(match name {
        "bufferbloat" => bufferbloat::build(v),
        "red-study" => red_study::build(v),
        "rtt-unfair" => warbler::rtt_unfair(v),
        "cubic-vegas-2q" => warbler::cubic_vegas_2q(v),
        "cubic-bbr-vegas-3q" => warbler::cubic_bbr_vegas_3q(v),
        "warbler-upstream" => warbler::warbler_upstream(v),
        "vegas-newreno-mix" => warbler::vegas_newreno_mix(v),
        "dqn-dumbbell" => dqn::build(v),
        "warbler-mice" => warbler_mice::build(v),
        "parking-lot" => parking_lot::build(v),
        "two-bottlenecks" => two_bottlenecks::build(v),
        "ack-congestion" => ack_congestion::build(v),
        "web-workload" => web_workload::build(v),
        "incast" => incast::build(v),
        "udp-vs-tcp" => udp_vs_tcp::build(v),
        "dctcp-vs-cubic" => dctcp::build(v),
        "l4s-coexistence" => l4s::build(v),
        "red-ecn" => red_ecn::build(v),
        _ => unreachable!("listed presets are built above"),
    })
}

fn names() -> String {
    preset_list().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_every_preset_is_valid() {
        for p in preset_list() {
            for v in p.variants {
                let s = preset(p.name, Some(v)).unwrap();
                assert_eq!(s.validate(), Ok(()), "{}/{}", p.name, v);
            }
        }
    }

    /// Every number a preset's text quotes comes from the scenario, this app's measured
    /// figures (pinned by tests/golden.rs) or the paper's; none is written by hand.
    #[test]
    fn every_number_in_a_preset_text_is_drawn_from_where_it_is_true() {
        for p in preset_list() {
            for t in p.templates() {
                let loose = text::loose_numbers(t);
                assert!(loose.is_empty(), "{}: numbers written by hand {loose:?} in: {t}", p.name);
                if let Err(e) = text::render(p.name, p.default_variant, t) {
                    panic!("{}: {e}", p.name);
                }
            }
            assert!(
                !p.setting.is_empty() && !p.here.is_empty(),
                "{}: say what is simulated and shown",
                p.name
            );
        }
    }

    /// A watch point marked `[t=T]` gets its time, within the runs of the preset, and loses
    /// the mark; the others have none.
    #[test]
    fn a_timed_watch_point_is_at_a_time_within_the_run() {
        let mut timed_points = 0;
        for p in preset_list() {
            let t = p.texts();
            let longest =
                p.variants.iter().map(|v| preset(p.name, Some(v)).unwrap().duration_s).fold(0.0, f64::max);
            for ((template, text), at) in p.watch.iter().zip(&t.watch).zip(&t.watch_at) {
                assert_eq!(template.starts_with("[t="), at.is_some(), "{}: {template}", p.name);
                assert!(!text.starts_with('['), "{}: {text}", p.name);
                if let Some(at) = at {
                    assert!(*at > 0.0 && *at < longest, "{}: {at} s", p.name);
                    timed_points += 1;
                }
            }
        }
        assert!(timed_points >= 2);
        assert_eq!(timed(" [t=3] x".into()), (None, " [t=3] x".into()));
        assert_eq!(timed("[t=2.5 s] x".into()), (Some(2.5), "x".into()));
        assert_eq!(timed("[t=NaN] x".into()).0, None);
    }

    #[test]
    fn unknown_names_are_errors_that_list_the_choices() {
        assert!(preset("nope", None).unwrap_err().contains("red-study"));
        assert!(preset("red-study", Some("blue")).unwrap_err().contains("gentle"));
    }
}
