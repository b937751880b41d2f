// The dumbbell AQM Lab simulates, in ns-3 (3.44), for side-by-side comparisons.
//
// Topology (as sim-core/src/sim/build.rs): every flow has its own sender node and its own
// access link (rate, one-way delay) to a router; the router reaches the one receiver node over
// the bottleneck (rate, delay). The studied queue disc sits on the router's bottleneck device,
// over a DropTail device queue of `--nicQueue` packets (ns-3's minimum is 1; its default 100).
// Host and reverse-path devices have no queue disc and a `--hostQueue`-packet device queue,
// as AQM Lab's host links (a large tail-drop FIFO).
//
// Flows: `--flows="cca,count,accessRateBps,accessDelayMs,startS[,bytes];..."`, cca one of
// newreno, cubic, vegas, bbr, dctcp (TcpDctcp, which turns ECN on for its own socket; its
// receiver is a TcpDctcp socket too, for DCTCP's per-segment echo), or udp/RATE: an OnOffApplication over UDP sending 1000-byte
// datagrams at RATE bit/s of payload, always on (AQM Lab's `udp` source, issue 24), or
// ping/INTERVAL_MS: ns-3's Ping application (ICMP echo requests of 56 data bytes, 86 bytes on
// the wire, every INTERVAL_MS ms, answered by the receiver's ICMP; AQM Lab's `ping` source),
// its RTT samples taken from its "Rtt" trace. Each flow is a bulk sender (its socket created before the run so
// that only BBR sockets pace) and a PacketSink on its own port. With `bytes` the sender writes
// that many bytes and then closes the socket (ns-3 sends the FIN on the last data segment, or
// alone right behind it when the last write already went out), as BulkSendApplication with
// MaxBytes does; its completion time is from the SYN (the application's start) to the first
// ACK covering every data byte (the HighestRxAck trace).
//
// Output (`--out=FILE`, JSON, the fields AQM Lab's summary.json has where they exist): per-flow
// goodput (bytes the sink received after the warm-up), timeouts (every expiry of the
// retransmission timer, by the congestion state it found, as AQM Lab's summary counts them;
// `loss_entries` are the entries into CA_LOSS, which leave out the backed-off repeats) and
// fast recoveries (entries into CA_RECOVERY), ssthresh cuts with their times, per-packet queueing delay at
// the bottleneck (queue-disc enqueue to the start of transmission) P50/P95/mean; the
// queue-disc length sampled every `--sample` s (mean, std, median, p90, p99, empty %);
// drops at the bottleneck queue disc after the warm-up (total, early/forced for RED, median
// interval); Jain's index; for the whole run, every drop's time (`drop_times`), the disc's
// length every `--sample` s from the start (`queue_trace`, [time, packets]) and each flow's
// timeout and recovery entry times, so the first seconds can be compared too; a finite flow's start and completion time (`start_s`, `fct_s`, -1
// if it did not complete). A ping flow is marked `"probe": true` and has `ping_sent` (requests
// sent), `ping_answered` (replies received) and `ping_rtts_ms` (the RTT of every answered
// request sent after the warm-up, in the order the replies came); as in AQM Lab it is left out
// of the goodput and Jain's index.
//
// ECN (issue 25): `--ecn` sets TcpSocketBase::UseEcn = On for every TCP socket, senders and
// sinks (RFC 3168 negotiation, ECT(0) on new data, ECE/CWR); `--useEcn`/`--useHardDrop` are
// RED's; `--qdisc=step --stepK=K` is DCTCP's step marker built from RED (see common.h).
// Marks at the disc come from the QueueDisc "Mark" trace, which fires as the disc marks an
// arriving packet: `marks` has every mark of the whole run (`total_all`), those after the
// warm-up (`total`) by reason ("Unforced mark": RED's early zone; "Forced mark": above MaxTh
// without hard drops, the step's every mark), per second, and as a share of the packets
// that left the disc after the warm-up (`marked_pct`, every packet the bottleneck device
// started sending: data, and the few handshake ACKs and FINs); each flow has its own window
// `marks`, `cwr_entries` (entries into CA_CWR over the whole run: ECN reductions) with
// `cwr_from` (the state each left: ns-3.44's EnterCwr leaves Recovery and Loss too),
// `timeouts_by_state.cwr` (timer expiries that found CA_CWR, also counted in `open`), and
// for a DCTCP flow `dctcp` (TcpDctcp's "CongestionEstimate" after the warm-up: windows, mean
// alpha, the share of acknowledged bytes echoed as marked). `--recovery=classic` swaps ns-3's
// PRR for TcpClassicRecovery (cwnd = ssthresh at once), to tell what PRR does in CWR.
//
// Tracing one flow (`--traceFlow=I --traceFile=CSV`, rows time_s,name,value, times to 12
// digits): its cwnd, ssthresh, in-flight, RTT, pacing rate and congestion state as they
// change; every segment its socket sends (`tx`, sequence:payload:CWR), every ACK it
// receives (`ack`, ack:ECE[:left-right per SACK block]) and, for DCTCP, every window's α
// (`alpha`, echoed:acked:alpha); the disc's marks of its packets (`mark`, sequence) over the
// whole run; every flow's RTO and smoothed RTT and every drop. `--traceEnqueue` adds every
// packet the disc takes, any flow's (`enq`, flow:sequence:bytes), and every mark, any flow's
// (`markall`, flow; RED's Mark trace fires before the enqueue, so a packet marked and then
// dropped at the limit counts). With these the lab's side
// can be followed packet by packet (issue 25's DCTCP rules were found that way).
//
// Build with build.sh beside this file; runs take about a second.

#include "common.h"

#include "ns3/internet-apps-module.h"

#include <set>

// Read-only access to TcpBbr's and TcpSocketBase's private state for the `bbrTrace` sampler:
// both classes befriend a test class of these names (ns-3's own test suite, not linked here).
namespace ns3
{
class TcpGeneralTest
{
  public:
    static Ptr<TcpCongestionOps> Cc(Ptr<TcpSocketBase> s) { return s->m_congestionControl; }
    static Ptr<TcpSocketState> Tcb(Ptr<TcpSocketBase> s) { return s->m_tcb; }
};
} // namespace ns3

class TcpBbrCheckGainValuesTest
{
  public:
    // state cycle_index pacing_gain cwnd_gain btlbw_bps min_rtt_ms target_cwnd extra_acked
    static std::string Row(ns3::Ptr<ns3::TcpBbr> b)
    {
        std::ostringstream o;
        o << int(b->m_state) << "," << b->m_cycleIndex << "," << b->m_pacingGain.Get() << ","
          << b->m_cWndGain.Get() << "," << b->m_maxBwFilter.GetBest().GetBitRate() << ","
          << (b->m_minRtt.Get() == ns3::Time::Max() ? -1.0 : b->m_minRtt.Get().GetSeconds() * 1e3)
          << "," << b->m_targetCWnd << "," << b->AckAggregationCwnd();
        return o.str();
    }
};

namespace
{

struct Group
{
    std::string cca;
    uint32_t count;
    uint64_t rateBps;
    double delayMs;
    double startS;
    uint64_t bytes; // 0 = unlimited
};

struct FlowStats : FlowCounters
{
    std::string cca;
    uint32_t timeouts = 0;      // entries into CA_LOSS (whole run)
    uint32_t rtoByState[5] = {}; // timer expiries by the TcpCongState_t they found
    int congState = 0;
    uint32_t recoveries = 0;    // entries into CA_RECOVERY (whole run)
    std::vector<double> cuts;   // times of ssthresh reductions after the warm-up
    std::vector<double> lossTimes;     // entries into CA_LOSS (whole run)
    std::vector<double> recoveryTimes; // entries into CA_RECOVERY (whole run)
    std::vector<double> delays; // queueing delay samples at the bottleneck (s)
    double cwndSum = 0;         // for the sampled mean cwnd
    uint32_t cwndSamples = 0;
    uint64_t bytes = 0;         // finite flow size, 0 = unlimited
    double startS = 0;
    double fctS = -1;           // SYN to the ACK of the last data byte
    bool probe = false;         // a ping: out of the goodput and Jain's index
    uint32_t pingSent = 0;      // echo requests sent (whole run)
    uint32_t pingAnswered = 0;  // replies received (whole run)
    std::vector<double> pingRtts; // ms, of the requests sent after the warm-up
    uint64_t marks = 0;           // CE marks at the disc after the warm-up
    uint32_t cwrEntries = 0;      // entries into CA_CWR (whole run)
    uint32_t cwrFrom[5] = {};     // ...by the state left (ns-3.44's EnterCwr leaves any)
    // DCTCP's "CongestionEstimate" after the warm-up: windows, bytes acknowledged and of
    // them echoed (ECE), the sum of alpha at each window's end.
    uint64_t dctcpWindows = 0, dctcpAcked = 0, dctcpEchoed = 0;
    double dctcpAlphaSum = 0;
};

std::vector<FlowStats> g_flows;

FlowCounters&
Flow(uint32_t flow)
{
    return g_flows[flow];
}

std::vector<double> g_dropTimes;
std::vector<double> g_dropTimesAll;                         // every drop, whole run
std::vector<std::pair<double, uint32_t>> g_queueTrace;     // (time, disc packets), whole run
uint64_t g_dropsAll = 0;
uint64_t g_dropsEarly = 0, g_dropsForced = 0, g_dropsOverflow = 0, g_dropsOther = 0;
std::vector<double> g_queueSamples, g_nicSamples;
uint64_t g_marksAll = 0, g_marks = 0; // whole run; after the warm-up
uint64_t g_marksUnforced = 0, g_marksForced = 0, g_marksOther = 0; // after the warm-up
uint64_t g_departed = 0; // packets the bottleneck device started sending after the warm-up

/// Enqueue time and flow, carried by a packet through the bottleneck (packet UIDs are shared
/// by the segments cut from one application write, so they cannot key a map).
class EnqTag : public Tag
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("EnqTag").SetParent<Tag>().AddConstructor<EnqTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 12;
    }

    void Serialize(TagBuffer b) const override
    {
        b.WriteU64(t);
        b.WriteU32(flow);
    }

    void Deserialize(TagBuffer b) override
    {
        t = b.ReadU64();
        flow = b.ReadU32();
    }

    void Print(std::ostream& os) const override
    {
        os << t << " " << flow;
    }

    uint64_t t{0};
    uint32_t flow{0};
};

std::ofstream g_trace;
uint32_t g_traceFlow = UINT32_MAX;
// With a trace file: every (flow, sequence number) that reached the disc, so a drop of one
// seen before is a lost retransmission ("rtxdrop"). Counts DropBeforeEnqueue correctly
// (PIE, RED); a DropAfterDequeue item was enqueued first and would count as one.
std::set<std::pair<uint32_t, uint32_t>> g_seenSeq;

void
NoteSeq(Ptr<const QueueDiscItem> item, bool drop)
{
    auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    TcpHeader tcp;
    if (!ip || !item->GetPacket()->PeekHeader(tcp) || item->GetPacket()->GetSize() <= tcp.GetSerializedSize())
    {
        return;
    }
    uint32_t flow = FlowOf(item);
    auto key = std::make_pair(flow, tcp.GetSequenceNumber().GetValue());
    bool seen = !g_seenSeq.insert(key).second;
    if (drop && seen)
    {
        g_trace << Simulator::Now().GetSeconds() << ",rtxdrop," << flow << ":" << key.second << "\n";
    }
}

// Every flow's RTO and smoothed RTT (TcpSocketBase "RTO", "RTT"): time, name, flow:seconds.
void
TraceFlowTime(std::string name, uint32_t flow, Time, Time now)
{
    if (g_trace.is_open())
    {
        g_trace << Simulator::Now().GetSeconds() << "," << name << "," << flow << ":" << now.GetSeconds() << "\n";
    }
}

bool g_traceEnqueue = false;

void
OnEnqueue(Ptr<const QueueDiscItem> item)
{
    if (g_trace.is_open())
    {
        NoteSeq(item, false);
    }
    // With traceEnqueue: every packet the disc takes (time, "enq", flow:sequence:bytes).
    if (g_traceEnqueue && g_trace.is_open())
    {
        TcpHeader tcp;
        item->GetPacket()->PeekHeader(tcp);
        g_trace << Simulator::Now().GetSeconds() << ",enq," << FlowOf(item) << ":"
                << tcp.GetSequenceNumber().GetValue() << ":" << item->GetSize() << "\n";
    }
    EnqTag tag;
    tag.t = Simulator::Now().GetTimeStep();
    tag.flow = FlowOf(item);
    item->GetPacket()->ReplacePacketTag(tag);
}

void
OnTxBegin(Ptr<const Packet> p)
{
    EnqTag tag;
    if (!p->PeekPacketTag(tag))
    {
        return;
    }
    if (AfterWarmup())
    {
        g_departed++;
    }
    if (AfterWarmup() && tag.flow != UINT32_MAX)
    {
        g_flows[tag.flow].delays.push_back(
            (Simulator::Now() - TimeStep(tag.t)).GetSeconds());
    }
}

// QueueDisc "Mark": the disc marked an arriving packet CE (RED: RedQueueDisc::DoEnqueue).
void
OnMark(Ptr<const QueueDiscItem> item, const char* reason)
{
    g_marksAll++;
    if (g_traceEnqueue && g_trace.is_open())
    {
        g_trace << Simulator::Now().GetSeconds() << ",markall," << FlowOf(item) << "\n";
    }
    // With traceFlow: every mark of that flow's packets (time, "mark", TCP sequence number).
    if (g_trace.is_open() && FlowOf(item) == g_traceFlow)
    {
        TcpHeader tcp;
        if (item->GetPacket()->PeekHeader(tcp))
        {
            g_trace << Simulator::Now().GetSeconds() << ",mark," << tcp.GetSequenceNumber().GetValue()
                    << "\n";
        }
    }
    if (!AfterWarmup())
    {
        return;
    }
    g_marks++;
    std::string r(reason);
    if (r == "Unforced mark")
    {
        g_marksUnforced++;
    }
    else if (r == "Forced mark")
    {
        g_marksForced++;
    }
    else
    {
        g_marksOther++;
    }
    uint32_t flow = FlowOf(item);
    if (flow != UINT32_MAX)
    {
        g_flows[flow].marks++;
    }
}


void
OnDrop(Ptr<const QueueDiscItem> item, const char* reason)
{
    g_dropsAll++;
    g_dropTimesAll.push_back(Simulator::Now().GetSeconds());
    if (g_trace.is_open())
    {
        NoteSeq(item, true);
    }
    if (g_trace.is_open())
    {
        // Every drop of any flow: time, "drop", flow:sequence number.
        auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        TcpHeader tcp;
        if (ip && item->GetPacket()->PeekHeader(tcp))
        {
            g_trace << Simulator::Now().GetSeconds() << ",drop," << FlowOf(item) << ":"
                    << tcp.GetSequenceNumber().GetValue() << "\n";
        }
    }
    if (!AfterWarmup())
    {
        return;
    }
    g_dropTimes.push_back(Simulator::Now().GetSeconds());
    std::string r(reason);
    if (r == "Unforced drop")
    {
        g_dropsEarly++;
    }
    else if (r == "Forced drop")
    {
        g_dropsForced++;
    }
    else if (r == "Queue disc limit exceeded" || r == "Overlimit drop")
    {
        g_dropsOverflow++;
    }
    else
    {
        g_dropsOther++;
    }
}

// ReTxTimeout doubles m_rto before it sets CA_LOSS, and the CongState trace fires only on a
// change, so a timer expiring again in CA_LOSS shows only here.
void
OnRto(uint32_t flow, Time old, Time now)
{
    if (TimerExpired(old, now))
    {
        auto& f = g_flows[flow];
        f.rtoByState[std::min(f.congState, 4)]++;
    }
}

void
OnCongState(uint32_t flow, TcpSocketState::TcpCongState_t old, TcpSocketState::TcpCongState_t now)
{
    g_flows[flow].congState = int(now);
    if (g_trace.is_open() && flow == g_traceFlow)
    {
        g_trace << Simulator::Now().GetSeconds() << ",state," << int(now) << "\n";
    }
    // Whole run, as AQM Lab's summary counts them.
    if (now == TcpSocketState::CA_LOSS)
    {
        g_flows[flow].timeouts++;
        g_flows[flow].lossTimes.push_back(Simulator::Now().GetSeconds());
    }
    else if (now == TcpSocketState::CA_RECOVERY)
    {
        g_flows[flow].recoveries++;
        g_flows[flow].recoveryTimes.push_back(Simulator::Now().GetSeconds());
    }
    else if (now == TcpSocketState::CA_CWR)
    {
        g_flows[flow].cwrEntries++;
        g_flows[flow].cwrFrom[std::min(int(old), 4)]++;
    }
}

void
OnSsThresh(uint32_t flow, uint32_t old, uint32_t now)
{
    if (AfterWarmup() && now < old)
    {
        g_flows[flow].cuts.push_back(Simulator::Now().GetSeconds());
    }
}

void
OnHighRxAck(uint32_t flow, SequenceNumber32, SequenceNumber32 now)
{
    // The SYN takes sequence number 0, so data byte k (from 1) is acknowledged by k + 1.
    auto& f = g_flows[flow];
    if (f.bytes > 0 && f.fctS < 0 && now.GetValue() >= f.bytes + 1)
    {
        f.fctS = Simulator::Now().GetSeconds() - f.startS;
    }
}

// TcpDctcp "CongestionEstimate": one window's bytes echoed as marked, bytes acknowledged,
// and the new alpha.
void
OnDctcpEstimate(uint32_t flow, uint32_t echoed, uint32_t acked, double alpha)
{
    if (!AfterWarmup())
    {
        return;
    }
    auto& f = g_flows[flow];
    f.dctcpWindows++;
    f.dctcpAcked += acked;
    f.dctcpEchoed += echoed;
    f.dctcpAlphaSum += alpha;
}

// Ping "Tx": one echo request sent.
void
OnPingTx(uint32_t flow, uint16_t, Ptr<Packet>)
{
    g_flows[flow].pingSent++;
}

// Ping "Rtt": a reply to the request sent `rtt` ago (Ping takes the RTT as now less the
// request's recorded send time, so that send time is exact). Nothing duplicates packets
// here, so every call is a first answer.
void
OnPingRtt(uint32_t flow, uint16_t, Time rtt)
{
    auto& f = g_flows[flow];
    f.pingAnswered++;
    if (Simulator::Now() - rtt >= Seconds(g_warmup))
    {
        f.pingRtts.push_back(rtt.GetSeconds() * 1e3);
    }
}

void
TraceU32(std::string name, uint32_t, uint32_t now)
{
    g_trace << Simulator::Now().GetSeconds() << "," << name << "," << now << "\n";
}

// With traceFlow: the traced flow's segments as its socket sends them (time, "tx", TCP
// sequence number, payload bytes, CWR flag) and the ACKs it receives (time, "ack", ACK
// number, ECE flag, then each SACK block as left-right).
void
TraceTcpTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    g_trace << Simulator::Now().GetSeconds() << ",tx," << h.GetSequenceNumber().GetValue() << ":"
            << p->GetSize() << ":" << ((h.GetFlags() & TcpHeader::CWR) ? 1 : 0) << "\n";
}

void
TraceTcpRx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (!(h.GetFlags() & TcpHeader::ACK) || (h.GetFlags() & TcpHeader::SYN))
    {
        return;
    }
    g_trace << Simulator::Now().GetSeconds() << ",ack," << h.GetAckNumber().GetValue() << ":"
            << ((h.GetFlags() & TcpHeader::ECE) ? 1 : 0);
    if (h.HasOption(TcpOption::SACK))
    {
        auto sack = DynamicCast<const TcpOptionSack>(h.GetOption(TcpOption::SACK));
        for (auto& b : sack->GetSackList())
        {
            g_trace << ":" << b.first.GetValue() << "-" << b.second.GetValue();
        }
    }
    g_trace << "\n";
}

// With traceFlow a DCTCP flow: every window's α (time, "alpha", echoed:acked:alpha).
void
TraceDctcpAlpha(uint32_t echoed, uint32_t acked, double alpha)
{
    g_trace << Simulator::Now().GetSeconds() << ",alpha," << echoed << ":" << acked << ":" << alpha
            << "\n";
}

void
TraceRate(DataRate, DataRate now)
{
    g_trace << Simulator::Now().GetSeconds() << ",pacing_bps," << now.GetBitRate() << "\n";
}

void
TraceTime(std::string name, Time, Time now)
{
    g_trace << Simulator::Now().GetSeconds() << "," << name << "," << now.GetSeconds() << "\n";
}

std::ofstream g_bbrTrace;
Ptr<TcpSocketBase> g_bbrSocket;

// Every `period`: one row of the traced BBR flow's state beside the disc's length.
void
BbrSample(Ptr<TcpSocketBase> s, Ptr<QueueDisc> qd, Time period, Time end)
{
    Ptr<TcpBbr> b = DynamicCast<TcpBbr>(TcpGeneralTest::Cc(s));
    Ptr<TcpSocketState> tcb = TcpGeneralTest::Tcb(s);
    if (b && tcb)
    {
        g_bbrTrace << Simulator::Now().GetSeconds() << "," << TcpBbrCheckGainValuesTest::Row(b)
                   << "," << tcb->m_cWnd.Get() << "," << tcb->m_bytesInFlight.Get() << ","
                   << tcb->m_pacingRate.Get().GetBitRate() << "," << qd->GetNPackets() << "\n";
    }
    if (Simulator::Now() + period <= end)
    {
        Simulator::Schedule(period, &BbrSample, s, qd, period, end);
    }
}

void
Sample(Ptr<QueueDisc> qd, Ptr<Queue<Packet>> nic, Time interval, Time end)
{
    g_queueTrace.emplace_back(Simulator::Now().GetSeconds(), qd->GetNPackets());
    if (Simulator::Now().GetSeconds() > g_warmup + 1e-9)
    {
        g_queueSamples.push_back(qd->GetNPackets());
        g_nicSamples.push_back(nic->GetNPackets());
        for (auto& f : g_flows)
        {
            f.cwndSum += f.cwnd;
            f.cwndSamples++;
        }
    }
    if (Simulator::Now() + interval <= end)
    {
        Simulator::Schedule(interval, &Sample, qd, nic, interval, end);
    }
}

double
Quantile(std::vector<double> v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    double pos = q * (v.size() - 1);
    size_t i = static_cast<size_t>(pos);
    double f = pos - i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

double
Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return v.empty() ? 0 : s / v.size();
}

double
Std(const std::vector<double>& v)
{
    double m = Mean(v), s = 0;
    for (double x : v)
    {
        s += (x - m) * (x - m);
    }
    return v.empty() ? 0 : std::sqrt(s / v.size());
}

TypeId
CcaType(const std::string& cca)
{
    if (cca == "newreno")
    {
        return TcpNewReno::GetTypeId();
    }
    if (cca == "cubic")
    {
        return TcpCubic::GetTypeId();
    }
    if (cca == "vegas")
    {
        return TcpVegas::GetTypeId();
    }
    if (cca == "bbr")
    {
        return TcpBbr::GetTypeId();
    }
    if (cca == "dctcp")
    {
        return TcpDctcp::GetTypeId();
    }
    NS_FATAL_ERROR("unknown cca " << cca);
}

/// A TCP sink whose listening socket is made before the run with a congestion control of
/// its own (PacketSink takes the node's SocketType when it starts): a DCTCP flow needs a
/// TcpDctcp receiver, whose CwndEvent answers CE with DCTCP's per-segment echo
/// (TcpDctcp::CeState0to1/1to0) and whose Init turns ECN on for the listener. It reads
/// as PacketSink::HandleRead does and counts through OnRx as PacketSink's "Rx".
class TypedSink : public Application
{
  public:
    void Setup(Ptr<Socket> s, uint16_t port, uint32_t flow)
    {
        m_socket = s;
        m_port = port;
        m_flow = flow;
    }

  private:
    void StartApplication() override
    {
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        m_socket->Listen();
        m_socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&TypedSink::Accept, this));
        m_socket->SetRecvCallback(MakeCallback(&TypedSink::Read, this));
    }

    void StopApplication() override
    {
    }

    void Accept(Ptr<Socket> s, const Address&)
    {
        s->SetRecvCallback(MakeCallback(&TypedSink::Read, this));
        m_accepted.push_back(s);
    }

    void Read(Ptr<Socket> s)
    {
        Ptr<Packet> p;
        Address from;
        while ((p = s->RecvFrom(from)))
        {
            if (p->GetSize() == 0)
            {
                break;
            }
            OnRx(m_flow, p, from);
        }
    }

    Ptr<Socket> m_socket;
    std::vector<Ptr<Socket>> m_accepted;
    uint16_t m_port{0};
    uint32_t m_flow{0};
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string flowsSpec = "cubic,10,1000000,2,0";
    uint64_t bottleneckRate = 2000000;
    double bottleneckDelayMs = 10;
    uint32_t nicQueue = 100;
    uint32_t hostQueue = 10000;
    DiscArgs discArgs{.qdisc = "red", .limit = 100, .minTh = 5, .maxTh = 10, .qW = 0.002,
                      .maxP = 0.02, .gentle = false, .ared = false, .meanPktSize = 512,
                      .codelTargetMs = 5, .codelIntervalMs = 100};
    TcpArgs tcpArgs{.mss = 536, .delAck = 2, .initCwnd = 10, .sndBuf = 131072, .rcvBuf = 131072,
                    .minRtoMs = 1000, .sack = true, .timestamps = true};
    double duration = 60, warmup = 1, sample = 0.1;
    uint32_t seed = 1;
    std::string out = "ns3.json";
    std::string traceFile;
    int32_t traceFlow = -1;
    std::string bbrTraceFile;
    double bbrTracePeriod = 0.01;
    bool ecn = false;
    std::string recovery = "prr";

    CommandLine cmd(__FILE__);
    cmd.AddValue("flows", "groups: cca,count,accessRateBps,accessDelayMs,startS[,bytes];...", flowsSpec);
    cmd.AddValue("bottleneckRate", "bottleneck rate (bit/s)", bottleneckRate);
    cmd.AddValue("bottleneckDelay", "bottleneck one-way delay (ms)", bottleneckDelayMs);
    cmd.AddValue("nicQueue", "bottleneck device queue (packets, >= 1)", nicQueue);
    cmd.AddValue("hostQueue", "host and reverse device queues (packets)", hostQueue);
    discArgs.AddTo(cmd);
    tcpArgs.AddTo(cmd);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("warmup", "statistics ignore the first seconds", warmup);
    cmd.AddValue("sample", "queue sample interval (s)", sample);
    cmd.AddValue("seed", "RngRun", seed);
    cmd.AddValue("out", "JSON output file", out);
    cmd.AddValue("traceFlow", "write every cwnd, pacing-rate, in-flight, RTT and congestion-state change of this flow; every flow's RTO and smoothed RTT (rto/srtt, flow:s); every drop (flow:seq), a drop of a sequence number already seen at the disc also as rtxdrop", traceFlow);
    cmd.AddValue("traceFile", "...to this CSV file (time_s,name,value)", traceFile);
    cmd.AddValue("traceEnqueue", "with traceFlow: also every packet the disc takes, any flow's (enq, flow:seq:bytes)", g_traceEnqueue);
    cmd.AddValue("bbrTrace", "with traceFlow a BBR flow: sample its BBR state, cwnd, in-flight, pacing rate and the disc's length to this CSV", bbrTraceFile);
    cmd.AddValue("bbrTracePeriod", "...every this many seconds", bbrTracePeriod);
    cmd.AddValue("ecn", "TCP UseEcn = On for every socket (RFC 3168); DCTCP sockets use ECN anyway", ecn);
    cmd.AddValue("recovery", "TcpL4Protocol RecoveryType: prr (ns-3's default, TcpPrrRecovery) or classic (TcpClassicRecovery: cwnd = ssthresh at once)", recovery);
    cmd.Parse(argc, argv);
    g_warmup = warmup;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    tcpArgs.Apply();
    if (ecn)
    {
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
    }
    if (recovery == "classic")
    {
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    }
    else
    {
        NS_ABORT_MSG_IF(recovery != "prr", "recovery is prr or classic, not " << recovery);
    }

    std::vector<Group> groups;
    {
        std::stringstream ss(flowsSpec);
        std::string g;
        while (std::getline(ss, g, ';'))
        {
            std::stringstream gs(g);
            std::string f;
            std::vector<std::string> parts;
            while (std::getline(gs, f, ','))
            {
                parts.push_back(f);
            }
            NS_ABORT_MSG_IF(parts.size() != 5 && parts.size() != 6,
                            "flow group needs 5 or 6 fields: " << g);
            groups.push_back({parts[0],
                              static_cast<uint32_t>(std::stoul(parts[1])),
                              std::stoull(parts[2]),
                              std::stod(parts[3]),
                              std::stod(parts[4]),
                              parts.size() == 6 ? std::stoull(parts[5]) : 0});
        }
    }
    uint32_t n = 0;
    for (auto& g : groups)
    {
        n += g.count;
    }

    NodeContainer senders, router, receiver;
    senders.Create(n);
    router.Create(1);
    receiver.Create(1);
    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper bottleneck =
        P2pLinks(DataRate(bottleneckRate), NanoSeconds(std::llround(bottleneckDelayMs * 1e6)), nicQueue);
    NetDeviceContainer bnDev = bottleneck.Install(router.Get(0), receiver.Get(0));
    // The reverse direction (receiver -> router) gets a host-sized device queue.
    bnDev.Get(1)->GetObject<PointToPointNetDevice>()->GetQueue()->SetMaxSize(
        QueueSize(QueueSizeUnit::PACKETS, hostQueue));

    TrafficControlHelper tch;
    SetRootDisc(tch, discArgs, bottleneckRate, bottleneckDelayMs);
    QueueDiscContainer qdc = tch.Install(bnDev.Get(0));
    Ptr<QueueDisc> qd = qdc.Get(0);

    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer bnIf = addr.Assign(bnDev);
    TrafficControlHelper::Default().Uninstall(bnDev.Get(1));

    std::vector<Ipv4Address> senderAddr;
    {
        uint32_t i = 0;
        for (auto& g : groups)
        {
            PointToPointHelper access =
                P2pLinks(DataRate(g.rateBps), MicroSeconds(g.delayMs * 1000), hostQueue);
            for (uint32_t k = 0; k < g.count; ++k, ++i)
            {
                NetDeviceContainer d = access.Install(senders.Get(i), router.Get(0));
                std::ostringstream base;
                base << "10.1." << i << ".0";
                addr.SetBase(base.str().c_str(), "255.255.255.0");
                Ipv4InterfaceContainer ifs = addr.Assign(d);
                TrafficControlHelper tc;
                tc.Uninstall(d);
                senderAddr.push_back(ifs.GetAddress(0));
                g_addrToFlow[ifs.GetAddress(0).Get()] = i;
                FlowStats fs;
                fs.cca = g.cca.rfind("udp/", 0) == 0    ? std::string("udp")
                         : g.cca.rfind("ping/", 0) == 0 ? std::string("ping")
                                                        : g.cca;
                fs.probe = fs.cca == "ping";
                fs.bytes = g.bytes;
                fs.startS = g.startS;
                g_flows.push_back(fs);
            }
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Sinks and senders.
    uint32_t i = 0;
    for (auto& g : groups)
    {
        for (uint32_t k = 0; k < g.count; ++k, ++i)
        {
            uint16_t port = 5000 + i;
            if (g.cca.rfind("udp/", 0) == 0)
            {
                PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
                ApplicationContainer sa = sink.Install(receiver.Get(0));
                sa.Start(Seconds(0));
                sa.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, i));
                OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(bnIf.GetAddress(1), port));
                onoff.SetConstantRate(DataRate(std::stoull(g.cca.substr(4))), 1000);
                ApplicationContainer app = onoff.Install(senders.Get(i));
                app.Start(Seconds(g.startS));
                app.Stop(Seconds(duration + 1));
                continue;
            }
            if (g.cca.rfind("ping/", 0) == 0)
            {
                // The receiver's ICMP answers; the reply takes the ACKs' way back.
                PingHelper ping(bnIf.GetAddress(1));
                ping.SetAttribute("Interval", TimeValue(Time::FromDouble(std::stod(g.cca.substr(5)), Time::MS)));
                ping.SetAttribute("Size", UintegerValue(56));
                ping.SetAttribute("VerboseMode", EnumValue(Ping::SILENT));
                ApplicationContainer app = ping.Install(senders.Get(i));
                app.Start(Seconds(g.startS));
                app.Stop(Seconds(duration + 1));
                app.Get(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnPingTx, i));
                app.Get(0)->TraceConnectWithoutContext("Rtt", MakeBoundCallback(&OnPingRtt, i));
                continue;
            }
            if (g.cca == "dctcp")
            {
                Ptr<Socket> rs = receiver.Get(0)->GetObject<TcpL4Protocol>()->CreateSocket(CcaType(g.cca));
                Ptr<TypedSink> sink = CreateObject<TypedSink>();
                sink->Setup(rs, port, i);
                receiver.Get(0)->AddApplication(sink);
                sink->SetStartTime(Seconds(0));
            }
            else
            {
                InstallSink(receiver.Get(0), port, i);
            }

            // Only BBR paces (ns-3 requires it for BBR; AQM Lab paces only BBR).
            Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(g.cca == "bbr"));
            Ptr<TcpL4Protocol> tcp = senders.Get(i)->GetObject<TcpL4Protocol>();
            Ptr<Socket> s = tcp->CreateSocket(CcaType(g.cca));
            s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, i));
            s->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, i));
            s->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&OnSsThresh, i));
            s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, i));
            s->TraceConnectWithoutContext("HighestRxAck", MakeBoundCallback(&OnHighRxAck, i));
            if (g.cca == "dctcp")
            {
                TcpGeneralTest::Cc(DynamicCast<TcpSocketBase>(s))
                    ->TraceConnectWithoutContext("CongestionEstimate", MakeBoundCallback(&OnDctcpEstimate, i));
            }
            if (traceFlow >= 0)
            {
                s->TraceConnectWithoutContext("RTO", MakeBoundCallback(&TraceFlowTime, std::string("rto"), i));
                s->TraceConnectWithoutContext("RTT", MakeBoundCallback(&TraceFlowTime, std::string("srtt"), i));
            }
            if (static_cast<int32_t>(i) == traceFlow)
            {
                g_trace.open(traceFile);
                g_traceFlow = i;
                g_trace << std::setprecision(12);
                s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&TraceU32, std::string("cwnd")));
                s->TraceConnectWithoutContext("BytesInFlight", MakeBoundCallback(&TraceU32, std::string("inflight")));
                s->TraceConnectWithoutContext("PacingRate", MakeCallback(&TraceRate));
                s->TraceConnectWithoutContext("RTT", MakeBoundCallback(&TraceTime, std::string("rtt_s")));
                s->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&TraceU32, std::string("ssthresh")));
                s->TraceConnectWithoutContext("Tx", MakeCallback(&TraceTcpTx));
                s->TraceConnectWithoutContext("Rx", MakeCallback(&TraceTcpRx));
                if (g.cca == "dctcp")
                {
                    TcpGeneralTest::Cc(DynamicCast<TcpSocketBase>(s))
                        ->TraceConnectWithoutContext("CongestionEstimate", MakeCallback(&TraceDctcpAlpha));
                }
                g_bbrSocket = DynamicCast<TcpSocketBase>(s);
            }
            InstallBulkApp(senders.Get(i), s, InetSocketAddress(bnIf.GetAddress(1), port), g.bytes,
                           Seconds(g.startS), Seconds(duration + 1));
        }
    }

    qd->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
    qd->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDrop));
    qd->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDrop));
    qd->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));
    Ptr<PointToPointNetDevice> bn = bnDev.Get(0)->GetObject<PointToPointNetDevice>();
    bn->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTxBegin));
    if (!bbrTraceFile.empty() && g_bbrSocket)
    {
        g_bbrTrace.open(bbrTraceFile);
        g_bbrTrace << "time_s,state,cycle_index,pacing_gain,cwnd_gain,btlbw_bps,min_rtt_ms,"
                      "target_cwnd,extra_acked,cwnd,inflight,pacing_bps,queue_pkts\n";
        Simulator::Schedule(Seconds(bbrTracePeriod), &BbrSample, g_bbrSocket, qd,
                            Seconds(bbrTracePeriod), Seconds(duration));
    }
    Time interval = Seconds(sample);
    Simulator::Schedule(interval, &Sample, qd, bn->GetQueue(), interval, Seconds(duration));

    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    // Summary.
    double window = duration - warmup;
    std::vector<double> tput;
    std::vector<double> allDelays;
    for (auto& f : g_flows)
    {
        tput.push_back(f.rxBytes * 8.0 / window);
        allDelays.insert(allDelays.end(), f.delays.begin(), f.delays.end());
    }
    double sum = 0, sq = 0;
    size_t counted = 0; // flows in the goodput and Jain's index: all but the pings
    for (size_t k = 0; k < tput.size(); ++k)
    {
        if (g_flows[k].probe)
        {
            continue;
        }
        sum += tput[k];
        sq += tput[k] * tput[k];
        counted++;
    }
    double jfi = sq > 0 ? sum * sum / (counted * sq) : 0;
    std::vector<double> gaps;
    for (size_t k = 1; k < g_dropTimes.size(); ++k)
    {
        gaps.push_back((g_dropTimes[k] - g_dropTimes[k - 1]) * 1e3);
    }
    uint32_t empty = 0;
    for (double q : g_queueSamples)
    {
        empty += q == 0;
    }

    std::ofstream o(out);
    JsonHead(o, seed);
    o << "  \"window_s\": " << window << ",\n";
    o << "  \"throughput_bps\": " << sum << ",\n";
    o << "  \"utilisation\": " << sum / bottleneckRate << ",\n";
    o << "  \"jfi\": " << jfi << ",\n";
    o << "  \"delay_mean_s\": " << Mean(allDelays) << ",\n";
    o << "  \"delay_p50_s\": " << Quantile(allDelays, 0.5) << ",\n";
    o << "  \"delay_p95_s\": " << Quantile(allDelays, 0.95) << ",\n";
    o << "  \"queue\": {\"mean_packets\": " << Mean(g_queueSamples)
      << ", \"std_packets\": " << Std(g_queueSamples)
      << ", \"median_packets\": " << Quantile(g_queueSamples, 0.5)
      << ", \"p90_packets\": " << Quantile(g_queueSamples, 0.9)
      << ", \"p99_packets\": " << Quantile(g_queueSamples, 0.99)
      << ", \"empty_pct\": "
      << (g_queueSamples.empty() ? 0 : 100.0 * empty / g_queueSamples.size())
      << ", \"nic_mean_packets\": " << Mean(g_nicSamples) << "},\n";
    o << "  \"drops\": {\"total\": " << g_dropTimes.size() << ", \"total_all\": " << g_dropsAll
      << ", \"early\": " << g_dropsEarly << ", \"forced\": " << g_dropsForced
      << ", \"overflow\": " << g_dropsOverflow << ", \"other\": " << g_dropsOther
      << ", \"median_interval_ms\": " << Quantile(gaps, 0.5) << "},\n";
    o << "  \"marks\": {\"total_all\": " << g_marksAll << ", \"total\": " << g_marks
      << ", \"per_second\": " << (window > 0 ? g_marks / window : 0)
      << ", \"marked_pct\": " << (g_departed ? 100.0 * g_marks / g_departed : 0)
      << ", \"unforced\": " << g_marksUnforced << ", \"forced\": " << g_marksForced
      << ", \"other\": " << g_marksOther << "},\n";
    // Whole-run traces, from which compare.py takes the first seconds and the whole run.
    o << "  \"drop_times\": [";
    for (size_t k = 0; k < g_dropTimesAll.size(); ++k)
    {
        o << (k ? ", " : "") << g_dropTimesAll[k];
    }
    o << "],\n  \"queue_trace\": [";
    for (size_t k = 0; k < g_queueTrace.size(); ++k)
    {
        o << (k ? ", " : "") << "[" << g_queueTrace[k].first << ", " << g_queueTrace[k].second << "]";
    }
    o << "],\n";
    o << "  \"flows\": [\n";
    for (size_t k = 0; k < g_flows.size(); ++k)
    {
        auto& f = g_flows[k];
        o << "    {\"id\": " << k << ", \"cca\": \"" << f.cca << "\", \"throughput_bps\": " << tput[k]
          << ", \"delivered_bytes_all\": " << f.rxBytesAll << ", \"timeouts\": "
          << f.rtoByState[0] + f.rtoByState[1] + f.rtoByState[2] + f.rtoByState[3] + f.rtoByState[4]
          << ", \"timeouts_by_state\": {\"open\": " << f.rtoByState[0] + f.rtoByState[2]
          << ", \"disorder\": " << f.rtoByState[1] << ", \"recovery\": " << f.rtoByState[3]
          << ", \"loss\": " << f.rtoByState[4] << ", \"cwr\": " << f.rtoByState[2]
          << "}, \"loss_entries\": " << f.timeouts
          << ", \"fast_recoveries\": " << f.recoveries << ", \"cwnd_mean_bytes\": "
          << (f.cwndSamples ? f.cwndSum / f.cwndSamples : 0) << ", \"start_s\": " << f.startS
          << ", \"fct_s\": " << f.fctS << ", \"marks\": " << f.marks
          << ", \"cwr_entries\": " << f.cwrEntries << ", \"cwr_from\": {\"open\": " << f.cwrFrom[0]
          << ", \"disorder\": " << f.cwrFrom[1] << ", \"recovery\": " << f.cwrFrom[3]
          << ", \"loss\": " << f.cwrFrom[4] << "}";
        if (f.cca == "dctcp")
        {
            o << ", \"dctcp\": {\"windows\": " << f.dctcpWindows << ", \"alpha_mean\": "
              << (f.dctcpWindows ? f.dctcpAlphaSum / f.dctcpWindows : 0) << ", \"echoed_pct\": "
              << (f.dctcpAcked ? 100.0 * f.dctcpEchoed / f.dctcpAcked : 0) << "}";
        }
        o << ", \"delay_p50_s\": "
          << Quantile(f.delays, 0.5) << ", \"delay_p95_s\": " << Quantile(f.delays, 0.95)
          << ", \"cuts\": [";
        for (size_t c = 0; c < f.cuts.size(); ++c)
        {
            o << (c ? ", " : "") << f.cuts[c];
        }
        o << "], \"timeout_times\": [";
        for (size_t c = 0; c < f.lossTimes.size(); ++c)
        {
            o << (c ? ", " : "") << f.lossTimes[c];
        }
        o << "], \"recovery_times\": [";
        for (size_t c = 0; c < f.recoveryTimes.size(); ++c)
        {
            o << (c ? ", " : "") << f.recoveryTimes[c];
        }
        o << "]";
        if (f.probe)
        {
            o << ", \"probe\": true, \"ping_sent\": " << f.pingSent << ", \"ping_answered\": "
              << f.pingAnswered << ", \"ping_rtts_ms\": [";
            for (size_t c = 0; c < f.pingRtts.size(); ++c)
            {
                o << (c ? ", " : "") << f.pingRtts[c];
            }
            o << "]";
        }
        o << "}" << (k + 1 < g_flows.size() ? "," : "") << "\n";
    }
    o << "  ]\n}\n";
    Simulator::Destroy();
    return 0;
}
