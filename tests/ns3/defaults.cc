// Prints the attribute defaults of the ns-3.44 classes AQM Lab's defaults are compared with
// (tests/ns3_defaults.rs reads the committed output, tests/ns3/ns3-3.44-defaults.txt).
// Build against the ns-3.44 wheel (see build.sh); -Wl,--no-as-needed keeps the modules
// whose TypeIds are only looked up by name:
//   R=$NS3_VENV/lib/python3*/site-packages/ns3
//   g++ -std=c++20 -I$R/include tests/ns3/defaults.cc -o defaults -L$R/lib64 -Wl,--no-as-needed \
//     -lns3.44-core -lns3.44-network -lns3.44-internet -lns3.44-traffic-control -Wl,-rpath,$R/lib64
#include "ns3/core-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/internet-module.h"
#include <iostream>
using namespace ns3;
int main() {
  for (auto name : {"ns3::PieQueueDisc", "ns3::CoDelQueueDisc", "ns3::FqCoDelQueueDisc", "ns3::RedQueueDisc", "ns3::FifoQueueDisc", "ns3::TcpSocket", "ns3::TcpSocketBase", "ns3::FqPieQueueDisc"}) {
    TypeId t = TypeId::LookupByName(name);
    std::cout << "== " << name << "\n";
    for (uint32_t i = 0; i < t.GetAttributeN(); ++i) {
      auto a = t.GetAttribute(i);
      std::cout << "  " << a.name << " = " << a.initialValue->SerializeToString(a.checker) << "\n";
    }
  }
}
