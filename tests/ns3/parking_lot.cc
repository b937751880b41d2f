// The parking lot AQM Lab simulates (preset `parking-lot`,
// sim-core/src/scenario/presets/parking_lot.rs), in ns-3 (3.44), for side-by-side comparisons.
//
// Topology: routers R0-R1-R2-R3 joined by three links in series, `bottleneck` (R0 -> R1),
// `hop2` (R1 -> R2) and `hop3` (R2 -> R3), each `--linkRate` bit/s with `--linkDelay` ms one
// way. The studied queue disc sits on each link's forward device (R0's, R1's, R2's), over a
// DropTail device queue of `--nicQueue` packets. AQM Lab's preset has no device queue under
// the disc (`nic_queue_packets: 0`: the disc hands a packet to the wire the instant it is
// free); ns-3 cannot do that: PointToPointNetDevice::Send puts every packet into its device
// queue first, so a 0-packet queue would drop them all, and 1 is the smallest that works.
// With 1, one packet (1.2 ms at 10 Mbit/s) waits in the device behind the one on the wire
// while the disc is stopped by flow control, so each link buffers one packet more than the
// disc's limit and the disc sees every packet that much later. dumbbell.cc has the same
// `--nicQueue` (default 100, 1 in compare.py's rows), and there compare.py sets AQM Lab's
// `nic_queue_packets` to the same value; here compare.py runs the preset as it is (0), and
// its rows named "+ ns-3.44 TCP rules + device queue 1" set AQM Lab's three links to 1 too.
//
// Flows (fixed, as the preset): four CUBIC flows, each from its own sender host over its own
// access link (`--accessRate`, `--accessDelay`; no queue disc, `--hostQueue`-packet device
// queue, as AQM Lab's host links): flow 0 (the long flow) R0 -> R3 over all three links,
// flow 1 over the bottleneck alone (R0 -> R1), flow 2 over hop2 (R1 -> R2), flow 3 over hop3
// (R2 -> R3). AQM Lab hands a packet leaving a flow's last link straight to its receiver, so
// each receiver host hangs off its last router by a link of no delay at 100 Gbit/s
// (0.12 us per packet). Start times: `--starts=s0,s1,s2,s3` (seconds); compare.py takes them
// from AQM Lab's summary.json (`start_time_s`, the group's start plus the flow's drawn
// jitter of up to 0.5 s), so both simulators open each connection at the same instant.
// Routing: global (shortest paths; the chain has one path per pair).
//
// ACKs: in AQM Lab they come back over an uncongested reverse path (one link per route, its
// delays added up, at the route's slowest rate) and then the flow's access link. Here they
// take the reverse direction of the same point-to-point links (no queue disc, host-sized
// device queue), which carries no data: ACKs never queue there either, so the two are the
// same up to the ACKs' serialisation (a 54-byte ACK takes 43 us at 10 Mbit/s, here three
// times instead of once).
//
// TCP: AQM Lab's preset runs Linux's profile (warbler::linux_tcp()). Matched: MSS 1448,
// initial window 10, 200 ms minimum RTO, 6 MiB send and receive buffers (fixed; Linux would
// autotune them), delayed ACKs every 2 segments or 200 ms, SACK, timestamps, CUBIC with
// ns-3's defaults (AQM Lab's CUBIC is ns-3's TcpCubic: its slow start, HyStart, fast
// convergence, C 0.4, beta 0.7), no pacing. Not matchable, ns-3.44's own rules stay: its PRR (RecoverFS from the
// pipe, a segment per duplicate ACK; Linux's is RFC 9937), Karn's rule also for timestamp
// samples, only the first partial ACK in recovery restarting the timer, no restart from
// Disorder, SACKed retransmissions kept in the pipe, and the first data segment acknowledged
// at once (the preset delays it: `initial_quick_acks` 0). AQM Lab's `--tcp-profile ns3-3.44`
// and `tcp.initial_quick_acks=1` set every one of these on its side (compare.py's rows named
// "+ ns-3.44 TCP rules").
//
// Discs (`--qdisc`, `--limit` packets): fifo; red (the preset's "lecture RED": MinTh 5,
// MaxTh 15, QW 0.002, max_p 0.02 = LInterm 50, gentle, wait, MeanPktSize 1500, the link's
// rate as LinkBandwidth); fqcodel (target 5 ms, interval 100 ms, 1024 flows, drop batch 64;
// ns-3 takes the device MTU, 1500, as the quantum and MinBytes 1500 where AQM Lab's defaults
// are Linux's 1514; its UseEcn marks nothing, the flows not being ECN-capable).
//
// Output (`--out=FILE`, JSON, the fields of AQM Lab's summary.json where they exist): per
// flow its goodput after the warm-up (bytes the PacketSink got), whole-run bytes, timer
// expiries and entries into fast recovery; per link (`links`, bottleneck, hop2, hop3) the
// disc's mean length sampled every `--sample` s from the warm-up on (the sample at the
// warm-up instant included, as AQM Lab's link window), drops at the disc after the warm-up,
// and utilisation: bits on the wire (headers included, as AQM Lab counts it) over rate times
// the window, the part of a packet sent before the window opened left out. With
// `--traceFile`, one CSV row every `--sample` s of the whole run: time, "sample", each flow's
// cwnd (bytes) and delivered bytes, each disc's length; and rows for every drop (time, "drop",
// link, flow), every change of a flow's RTO ("rto", flow, s), every expiry of its timer
// ("timeout", flow, the RTO that expired) and every change of its smoothed RTT, which only an
// RTT sample makes ("rtt", flow, s).
//
// Build with build.sh beside this file; a 30 s run takes about two seconds.

#include "common.h"

namespace
{

const char* const LINK_NAMES[3] = {"bottleneck", "hop2", "hop3"};
// Each flow's first and last link (indices into LINK_NAMES): routers first .. last + 1.
const uint32_t FLOW_FIRST[4] = {0, 0, 1, 2};
const uint32_t FLOW_LAST[4] = {2, 0, 1, 2};

struct FlowStats : FlowCounters
{
    uint32_t timeouts = 0;   // expiries of the retransmission timer (whole run)
    uint32_t recoveries = 0; // entries into CA_RECOVERY (whole run)
    double startS = 0;
};

struct LinkStats
{
    Ptr<QueueDisc> disc;
    uint64_t drops = 0; // after the warm-up
    uint64_t dropsAll = 0;
    double queueSum = 0;
    uint32_t samples = 0;
    double txBits = 0; // on the wire after the warm-up
    Time txBegin;      // start of the transmission in progress
};

std::vector<FlowStats> g_flows(4);
std::vector<LinkStats> g_links(3);
std::ofstream g_trace;

FlowCounters&
Flow(uint32_t flow)
{
    return g_flows[flow];
}

void
OnDrop(uint32_t link, Ptr<const QueueDiscItem> item)
{
    g_links[link].dropsAll++;
    if (AfterWarmup())
    {
        g_links[link].drops++;
    }
    if (g_trace.is_open())
    {
        uint32_t flow = FlowOf(item);
        g_trace << Simulator::Now().GetSeconds() << ",drop," << LINK_NAMES[link] << ","
                << (flow == UINT32_MAX ? -1 : int(flow)) << "\n";
    }
}

void
OnDropReason(uint32_t link, Ptr<const QueueDiscItem> item, const char*)
{
    OnDrop(link, item);
}

void
OnTxBegin(uint32_t link, Ptr<const Packet>)
{
    g_links[link].txBegin = Simulator::Now();
}

// The packet's bits on the wire, less the part sent before the warm-up ended.
void
OnTxEnd(uint32_t link, Ptr<const Packet> p)
{
    Time end = Simulator::Now();
    Time w = Seconds(g_warmup);
    if (end <= w)
    {
        return;
    }
    Time begin = g_links[link].txBegin;
    double bits = p->GetSize() * 8.0;
    if (begin < w && end > begin)
    {
        bits *= (end - w).GetSeconds() / (end - begin).GetSeconds();
    }
    g_links[link].txBits += bits;
}

void
OnRto(uint32_t flow, Time old, Time now)
{
    if (TimerExpired(old, now))
    {
        g_flows[flow].timeouts++;
        if (g_trace.is_open())
        {
            g_trace << Simulator::Now().GetSeconds() << ",timeout," << flow << "," << old.GetSeconds() << "\n";
        }
    }
    if (g_trace.is_open())
    {
        g_trace << Simulator::Now().GetSeconds() << ",rto," << flow << "," << now.GetSeconds() << "\n";
    }
}

// A flow's smoothed RTT (TcpSocketBase "RTT"), which moves only when EstimateRtt takes a
// sample.
void
OnRtt(uint32_t flow, Time, Time now)
{
    g_trace << Simulator::Now().GetSeconds() << ",rtt," << flow << "," << now.GetSeconds() << "\n";
}

void
OnCongState(uint32_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        g_flows[flow].recoveries++;
    }
}

void
Sample(Time interval, Time end)
{
    double t = Simulator::Now().GetSeconds();
    if (t >= g_warmup - 1e-9)
    {
        for (auto& l : g_links)
        {
            l.queueSum += l.disc->GetNPackets();
            l.samples++;
        }
    }
    if (g_trace.is_open())
    {
        g_trace << t << ",sample";
        for (auto& f : g_flows)
        {
            g_trace << "," << f.cwnd << "," << f.rxBytesAll;
        }
        for (auto& l : g_links)
        {
            g_trace << "," << l.disc->GetNPackets();
        }
        g_trace << "\n";
    }
    if (Simulator::Now() + interval <= end)
    {
        Simulator::Schedule(interval, &Sample, interval, end);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t linkRate = 10000000;
    double linkDelayMs = 5;
    uint64_t accessRate = 100000000;
    double accessDelayMs = 2;
    uint32_t nicQueue = 1;
    uint32_t hostQueue = 10000;
    DiscArgs discArgs{.qdisc = "fifo", .limit = 100, .minTh = 5, .maxTh = 15, .qW = 0.002,
                      .maxP = 0.02, .gentle = true, .wait = true, .meanPktSize = 1500,
                      .codelTargetMs = 5, .codelIntervalMs = 100, .fqFlows = 1024,
                      .dropBatch = 64};
    TcpArgs tcpArgs{.mss = 1448, .delAck = 2, .initCwnd = 10, .sndBuf = 6 << 20,
                    .rcvBuf = 6 << 20, .minRtoMs = 200, .sack = true, .timestamps = true};
    double delAckTimeoutMs = 200;
    double duration = 30, warmup = 5, sample = 0.1;
    std::string starts = "0,0,0,0";
    uint32_t seed = 1;
    std::string out = "parking_lot.json";
    std::string traceFile;

    CommandLine cmd(__FILE__);
    cmd.AddValue("linkRate", "rate of each of the three links (bit/s)", linkRate);
    cmd.AddValue("linkDelay", "one-way delay of each of the three links (ms)", linkDelayMs);
    cmd.AddValue("accessRate", "every sender's access link rate (bit/s)", accessRate);
    cmd.AddValue("accessDelay", "every sender's access link one-way delay (ms)", accessDelayMs);
    cmd.AddValue("nicQueue", "device queue under each link's disc (packets, >= 1)", nicQueue);
    cmd.AddValue("hostQueue", "host, receiver and reverse device queues (packets)", hostQueue);
    discArgs.AddTo(cmd);
    tcpArgs.AddTo(cmd);
    cmd.AddValue("delAckTimeout", "TCP DelAckTimeout (ms)", delAckTimeoutMs);
    cmd.AddValue("starts", "the four flows' start times (s): long,bottleneck,hop2,hop3", starts);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("warmup", "statistics ignore the first seconds", warmup);
    cmd.AddValue("sample", "queue sample interval (s)", sample);
    cmd.AddValue("seed", "RngRun", seed);
    cmd.AddValue("out", "JSON output file", out);
    cmd.AddValue("traceFile", "CSV: every sample (cwnd and delivered bytes per flow, queue per link) and every drop", traceFile);
    cmd.Parse(argc, argv);
    g_warmup = warmup;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    {
        std::stringstream ss(starts);
        std::string s;
        uint32_t k = 0;
        while (std::getline(ss, s, ',') && k < 4)
        {
            g_flows[k++].startS = std::stod(s);
        }
        NS_ABORT_MSG_IF(k != 4, "--starts needs four times: " << starts);
    }
    if (!traceFile.empty())
    {
        g_trace.open(traceFile);
        g_trace << std::setprecision(10);
    }

    tcpArgs.Apply();
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(delAckTimeoutMs)));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(false));

    NodeContainer routers, senders, receivers;
    routers.Create(4);
    senders.Create(4);
    receivers.Create(4);
    InternetStackHelper stack;
    stack.InstallAll();

    // The preset's three discs only (SetRootDisc knows codel and pie too).
    if (discArgs.qdisc != "fifo" && discArgs.qdisc != "red" && discArgs.qdisc != "fqcodel")
    {
        NS_FATAL_ERROR("unknown qdisc " << discArgs.qdisc);
    }
    // The three links: the disc on the forward device (routers[i] -> routers[i + 1]).
    TrafficControlHelper tch;
    SetRootDisc(tch, discArgs, linkRate, linkDelayMs);

    Ipv4AddressHelper addr;
    std::vector<NetDeviceContainer> linkDev;
    for (uint32_t i = 0; i < 3; ++i)
    {
        PointToPointHelper p2p =
            P2pLinks(DataRate(linkRate), MicroSeconds(linkDelayMs * 1000), nicQueue);
        NetDeviceContainer d = p2p.Install(routers.Get(i), routers.Get(i + 1));
        // The reverse direction (ACKs only) gets a host-sized device queue and no disc.
        d.Get(1)->GetObject<PointToPointNetDevice>()->GetQueue()->SetMaxSize(
            QueueSize(QueueSizeUnit::PACKETS, hostQueue));
        g_links[i].disc = tch.Install(d.Get(0)).Get(0);
        std::ostringstream base;
        base << "10.0." << i << ".0";
        addr.SetBase(base.str().c_str(), "255.255.255.0");
        addr.Assign(d);
        TrafficControlHelper::Default().Uninstall(d.Get(1));
        linkDev.push_back(d);
    }

    // Senders' access links and receivers' attachments.
    std::vector<Ipv4Address> receiverAddr;
    for (uint32_t k = 0; k < 4; ++k)
    {
        PointToPointHelper access =
            P2pLinks(DataRate(accessRate), MicroSeconds(accessDelayMs * 1000), hostQueue);
        NetDeviceContainer a = access.Install(senders.Get(k), routers.Get(FLOW_FIRST[k]));
        std::ostringstream base;
        base << "10.1." << k << ".0";
        addr.SetBase(base.str().c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ai = addr.Assign(a);
        TrafficControlHelper().Uninstall(a);
        g_addrToFlow[ai.GetAddress(0).Get()] = k;

        PointToPointHelper sink = P2pLinks(DataRate("100Gbps"), Seconds(0), hostQueue);
        NetDeviceContainer r = sink.Install(routers.Get(FLOW_LAST[k] + 1), receivers.Get(k));
        std::ostringstream rbase;
        rbase << "10.2." << k << ".0";
        addr.SetBase(rbase.str().c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ri = addr.Assign(r);
        TrafficControlHelper().Uninstall(r);
        receiverAddr.push_back(ri.GetAddress(1));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (uint32_t k = 0; k < 4; ++k)
    {
        uint16_t port = 5000 + k;
        InstallSink(receivers.Get(k), port, k);

        Ptr<TcpL4Protocol> tcp = senders.Get(k)->GetObject<TcpL4Protocol>();
        Ptr<Socket> s = tcp->CreateSocket(TcpCubic::GetTypeId());
        s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, k));
        s->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, k));
        s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, k));
        if (g_trace.is_open())
        {
            s->TraceConnectWithoutContext("RTT", MakeBoundCallback(&OnRtt, k));
        }
        InstallBulkApp(senders.Get(k), s, InetSocketAddress(receiverAddr[k], port), 0,
                       NanoSeconds(std::llround(g_flows[k].startS * 1e9)), Seconds(duration + 1));
    }

    for (uint32_t i = 0; i < 3; ++i)
    {
        g_links[i].disc->TraceConnectWithoutContext("DropBeforeEnqueue", MakeBoundCallback(&OnDropReason, i));
        g_links[i].disc->TraceConnectWithoutContext("DropAfterDequeue", MakeBoundCallback(&OnDropReason, i));
        Ptr<PointToPointNetDevice> dev = linkDev[i].Get(0)->GetObject<PointToPointNetDevice>();
        dev->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&OnTxBegin, i));
        dev->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&OnTxEnd, i));
    }
    Time interval = Seconds(sample);
    Simulator::Schedule(interval, &Sample, interval, Seconds(duration));

    // One step past the end, so that the sample due at the end is taken, as AQM Lab's is.
    Simulator::Stop(Seconds(duration) + TimeStep(1));
    Simulator::Run();

    double window = duration - warmup;
    std::ofstream o(out);
    JsonHead(o, seed);
    o << "  \"qdisc\": \"" << discArgs.qdisc << "\",\n  \"window_s\": " << window << ",\n";
    o << "  \"links\": [\n";
    for (uint32_t i = 0; i < 3; ++i)
    {
        auto& l = g_links[i];
        o << "    {\"name\": \"" << LINK_NAMES[i] << "\", \"rate_bps\": " << linkRate
          << ", \"utilisation\": " << l.txBits / (double(linkRate) * window)
          << ", \"queue_mean_packets\": " << (l.samples ? l.queueSum / l.samples : 0)
          << ", \"queue_samples\": " << l.samples << ", \"drops\": " << l.drops
          << ", \"drops_all\": " << l.dropsAll << "}" << (i < 2 ? "," : "") << "\n";
    }
    o << "  ],\n  \"flows\": [\n";
    for (uint32_t k = 0; k < 4; ++k)
    {
        auto& f = g_flows[k];
        o << "    {\"id\": " << k << ", \"cca\": \"cubic\", \"route\": [";
        for (uint32_t i = FLOW_FIRST[k]; i <= FLOW_LAST[k]; ++i)
        {
            o << (i > FLOW_FIRST[k] ? ", " : "") << "\"" << LINK_NAMES[i] << "\"";
        }
        o << "], \"start_s\": " << f.startS << ", \"throughput_bps\": " << f.rxBytes * 8.0 / window
          << ", \"delivered_bytes_all\": " << f.rxBytesAll << ", \"timeouts\": " << f.timeouts
          << ", \"fast_recoveries\": " << f.recoveries << "}" << (k < 3 ? "," : "") << "\n";
    }
    o << "  ]\n}\n";
    Simulator::Destroy();
    return 0;
}
