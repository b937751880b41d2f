// What the two ns-3 (3.44) mirrors of AQM Lab's scenarios, dumbbell.cc and parking_lot.cc,
// have in common: the bulk sender, the warm-up clock, the flow a packet at a disc belongs to,
// goodput and cwnd counting, the test for an expiry of the retransmission timer, the TCP and
// queue-disc settings taken from the command line, point-to-point links, sinks, and the head
// of the JSON summary. Both programs include it. Each is a single translation unit, so the
// definitions live here, in an anonymous namespace, and build.sh rebuilds both when it changes.

#ifndef AQMLAB_NS3_COMMON_H
#define AQMLAB_NS3_COMMON_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

// Both programs are written against ns-3's names unqualified.
using namespace ns3;

namespace
{

// Statistics ignore the first seconds; main sets it from `--warmup`.
double g_warmup = 0;

bool
AfterWarmup()
{
    return Simulator::Now().GetSeconds() >= g_warmup;
}

std::map<uint32_t, uint32_t> g_addrToFlow; // sender IPv4 address -> flow

// The flow a packet at a disc comes from (by its IPv4 source), UINT32_MAX for none.
uint32_t
FlowOf(Ptr<const QueueDiscItem> item)
{
    if (auto ip = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        auto it = g_addrToFlow.find(ip->GetHeader().GetSource().Get());
        if (it != g_addrToFlow.end())
        {
            return it->second;
        }
    }
    return UINT32_MAX;
}

// What both programs count for every flow; each one's FlowStats extends it.
struct FlowCounters
{
    uint64_t rxBytes = 0;    // after the warm-up
    uint64_t rxBytesAll = 0; // whole run
    uint32_t cwnd = 0;       // the latest
};

// Flow `flow`'s counters; each program defines it over its own flow table.
FlowCounters& Flow(uint32_t flow);

// PacketSink "Rx": goodput is what the sink got.
void
OnRx(uint32_t flow, Ptr<const Packet> p, const Address&)
{
    Flow(flow).rxBytesAll += p->GetSize();
    if (AfterWarmup())
    {
        Flow(flow).rxBytes += p->GetSize();
    }
}

void
OnCwnd(uint32_t flow, uint32_t, uint32_t now)
{
    Flow(flow).cwnd = now;
}

// For TcpSocketBase's "RTO" trace: ReTxTimeout doubles m_rto (RFC 6298 (5.5)), every other
// write of it is the estimate (NewAck, EstimateRtt), so a doubling is an expiry of the timer.
// Missed: an expiry with the RTO already at its 60 s cap.
bool
TimerExpired(Time old, Time now)
{
    return now == old + old;
}

// The TCP attributes both programs take from the command line (each with its own defaults).
struct TcpArgs
{
    uint32_t mss;
    uint32_t delAck;
    uint32_t initCwnd;
    uint32_t sndBuf;
    uint32_t rcvBuf;
    double minRtoMs;
    bool sack;
    bool timestamps;

    void AddTo(CommandLine& cmd)
    {
        cmd.AddValue("mss", "TCP SegmentSize (bytes)", mss);
        cmd.AddValue("delAck", "TCP DelAckCount", delAck);
        cmd.AddValue("initCwnd", "TCP InitialCwnd (segments)", initCwnd);
        cmd.AddValue("sndBuf", "TCP SndBufSize (bytes)", sndBuf);
        cmd.AddValue("rcvBuf", "TCP RcvBufSize (bytes)", rcvBuf);
        cmd.AddValue("minRto", "TCP MinRto (ms)", minRtoMs);
        cmd.AddValue("sack", "TCP Sack", sack);
        cmd.AddValue("timestamps", "TCP Timestamp", timestamps);
    }

    // As defaults: a socket takes them when it is made, so this goes before any is.
    void Apply() const
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initCwnd));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(sndBuf));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rcvBuf));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(minRtoMs)));
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    }
};

// The studied disc (`--qdisc` and its parameters). Each program puts its own parameters on
// its command line; the ones with a default here are ns-3.44's defaults, for the program that
// does not take them (the dumbbell: wait, fqFlows, dropBatch; the parking lot: ared; both:
// useEcn, useHardDrop, stepK).
struct DiscArgs
{
    std::string qdisc; // fifo, red, step, codel, fqcodel or pie
    uint32_t limit;    // packets
    double minTh, maxTh, qW, maxP;
    bool gentle;
    bool wait = true;
    bool ared = false;
    bool useEcn = false;     // RED UseEcn: mark an ECN-capable packet instead of an early drop
    bool useHardDrop = true; // RED UseHardDrop: with ECN, still drop in the forced zone
    double stepK = 20;       // step: RED with MinTh = MaxTh = K, QW = 1 (see SetRootDisc)
    uint32_t meanPktSize; // RED and PIE
    double codelTargetMs, codelIntervalMs;
    uint32_t fqFlows = 1024, dropBatch = 64;

    void AddTo(CommandLine& cmd)
    {
        cmd.AddValue("qdisc", "fifo|red|codel|fqcodel|pie", qdisc);
        cmd.AddValue("limit", "queue disc limit (packets)", limit);
        cmd.AddValue("minTh", "RED MinTh (packets)", minTh);
        cmd.AddValue("maxTh", "RED MaxTh (packets)", maxTh);
        cmd.AddValue("qW", "RED QW", qW);
        cmd.AddValue("maxP", "RED initial max_p (LInterm = 1/maxP)", maxP);
        cmd.AddValue("gentle", "RED Gentle", gentle);
        cmd.AddValue("wait", "RED Wait", wait);
        cmd.AddValue("ared", "RED ARED", ared);
        cmd.AddValue("useEcn", "RED UseEcn", useEcn);
        cmd.AddValue("useHardDrop", "RED UseHardDrop", useHardDrop);
        cmd.AddValue("stepK", "step: marking threshold K (packets)", stepK);
        cmd.AddValue("meanPktSize", "RED/PIE MeanPktSize (bytes)", meanPktSize);
        cmd.AddValue("codelTarget", "CoDel/FQ-CoDel target (ms)", codelTargetMs);
        cmd.AddValue("codelInterval", "CoDel/FQ-CoDel interval (ms)", codelIntervalMs);
        cmd.AddValue("fqFlows", "FQ-CoDel Flows", fqFlows);
        cmd.AddValue("dropBatch", "FQ-CoDel DropBatchSize", dropBatch);
    }
};

// `d` as the root disc `tch` installs; RED also takes the link's rate and one-way delay
// (in ns: MilliSeconds() takes a whole number, so 0.05 ms would be 0).
void
SetRootDisc(TrafficControlHelper& tch, const DiscArgs& d, uint64_t rateBps, double delayMs)
{
    QueueSize qsize(QueueSizeUnit::PACKETS, d.limit);
    if (d.qdisc == "fifo")
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(qsize));
    }
    else if (d.qdisc == "red")
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", QueueSizeValue(qsize),
                             "MinTh", DoubleValue(d.minTh),
                             "MaxTh", DoubleValue(d.maxTh),
                             "QW", DoubleValue(d.qW),
                             "LInterm", DoubleValue(1.0 / d.maxP),
                             "Gentle", BooleanValue(d.gentle),
                             "Wait", BooleanValue(d.wait),
                             "ARED", BooleanValue(d.ared),
                             "MeanPktSize", UintegerValue(d.meanPktSize),
                             "LinkBandwidth", DataRateValue(DataRate(rateBps)),
                             "LinkDelay", TimeValue(NanoSeconds(std::llround(delayMs * 1e6))),
                             "UseEcn", BooleanValue(d.useEcn),
                             "UseHardDrop", BooleanValue(d.useHardDrop));
    }
    else if (d.qdisc == "step")
    {
        // DCTCP's step marker as ns-3 builds it from RED (the settings of dctcp-example.cc
        // but for the thresholds: that example runs MinTh 20, MaxTh 60 and the default
        // Gentle, a ramp): QW = 1 makes the average the instantaneous length at the arrival
        // (Estimator: qAvg (1 - QW)^m + QW nQueued), MinTh = MaxTh = K and Gentle off make
        // every arrival that finds nQueued >= K (and more than one packet) a forced one,
        // which UseEcn without UseHardDrop marks when it is ECN-capable and drops when not
        // (RedQueueDisc::DoEnqueue). Tail drop at MaxSize.
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", QueueSizeValue(qsize),
                             "MinTh", DoubleValue(d.stepK),
                             "MaxTh", DoubleValue(d.stepK),
                             "QW", DoubleValue(1.0),
                             "Gentle", BooleanValue(false),
                             "ARED", BooleanValue(false),
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(d.meanPktSize),
                             "LinkBandwidth", DataRateValue(DataRate(rateBps)),
                             "LinkDelay", TimeValue(NanoSeconds(std::llround(delayMs * 1e6))));
    }
    else if (d.qdisc == "codel")
    {
        tch.SetRootQueueDisc("ns3::CoDelQueueDisc",
                             "MaxSize", QueueSizeValue(qsize),
                             "Target", StringValue(std::to_string(d.codelTargetMs) + "ms"),
                             "Interval", StringValue(std::to_string(d.codelIntervalMs) + "ms"));
    }
    else if (d.qdisc == "fqcodel")
    {
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                             "MaxSize", QueueSizeValue(qsize),
                             "Flows", UintegerValue(d.fqFlows),
                             "DropBatchSize", UintegerValue(d.dropBatch),
                             "Target", StringValue(std::to_string(d.codelTargetMs) + "ms"),
                             "Interval", StringValue(std::to_string(d.codelIntervalMs) + "ms"));
    }
    else if (d.qdisc == "pie")
    {
        tch.SetRootQueueDisc("ns3::PieQueueDisc",
                             "MaxSize", QueueSizeValue(qsize),
                             "MeanPktSize", UintegerValue(d.meanPktSize));
    }
    else
    {
        NS_FATAL_ERROR("unknown qdisc " << d.qdisc);
    }
}

// Point-to-point links whose devices hold up to `packets` packets (DropTail).
PointToPointHelper
P2pLinks(DataRate rate, Time delay, uint32_t packets)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    p2p.SetQueue("ns3::DropTailQueue",
                 "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, packets)));
    return p2p;
}

// Flow `flow`'s receiver: a PacketSink on `port`, counted by OnRx.
void
InstallSink(Ptr<Node> node, uint16_t port, uint32_t flow)
{
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sa = sink.Install(node);
    sa.Start(Seconds(0));
    sa.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, flow));
}

/// A bulk sender whose socket is made before the run (so each can have its own type and
/// pacing setting) and keeps the send buffer full; with `maxBytes` (0: send forever) it
/// writes that many bytes and then closes the socket.
class BulkApp : public Application
{
  public:
    void Setup(Ptr<Socket> s, Address peer, uint64_t maxBytes)
    {
        m_socket = s;
        m_peer = peer;
        m_maxBytes = maxBytes;
    }

  private:
    void StartApplication() override
    {
        m_socket->Bind();
        m_socket->Connect(m_peer);
        m_socket->SetConnectCallback(MakeCallback(&BulkApp::Connected, this),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeCallback(&BulkApp::Space, this));
    }

    void StopApplication() override
    {
    }

    void Connected(Ptr<Socket>)
    {
        m_connected = true;
        Fill();
    }

    void Space(Ptr<Socket>, uint32_t)
    {
        if (m_connected)
        {
            Fill();
        }
    }

    void Fill()
    {
        while (!m_closed && m_socket->GetTxAvailable() > 0)
        {
            uint64_t n = std::min<uint64_t>(m_socket->GetTxAvailable(), 1448 * 8);
            if (m_maxBytes > 0)
            {
                n = std::min(n, m_maxBytes - m_sent);
            }
            int r = m_socket->Send(Create<Packet>(static_cast<uint32_t>(n)));
            if (r < 0)
            {
                break;
            }
            m_sent += r;
            if (m_maxBytes > 0 && m_sent >= m_maxBytes)
            {
                // As BulkSendApplication: close once the last byte is in the socket.
                m_socket->Close();
                m_closed = true;
            }
        }
    }

    Ptr<Socket> m_socket;
    Address m_peer;
    bool m_connected{false};
    uint64_t m_maxBytes{0};
    uint64_t m_sent{0};
    bool m_closed{false};
};

// A BulkApp on `node` sending over `s` to `peer` from `start` to `stop`.
void
InstallBulkApp(Ptr<Node> node, Ptr<Socket> s, Address peer, uint64_t maxBytes, Time start,
               Time stop)
{
    Ptr<BulkApp> app = CreateObject<BulkApp>();
    app->Setup(s, peer, maxBytes);
    node->AddApplication(app);
    app->SetStartTime(start);
    app->SetStopTime(stop);
}

// The summary's head, the same in both programs' JSON.
void
JsonHead(std::ostream& o, uint32_t seed)
{
    o << std::setprecision(10);
    o << "{\n  \"simulator\": \"ns-3.44\",\n  \"seed\": " << seed << ",\n";
}

} // namespace

#endif // AQMLAB_NS3_COMMON_H
