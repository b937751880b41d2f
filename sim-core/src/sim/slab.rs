use crate::hint::prefetch_lines;
use crate::net::Packet;

/// Storage for packets in the network; events and queues refer to them by index.
#[derive(Default)]
pub struct PacketSlab {
    slots: Vec<Packet>,
    free: Vec<u32>,
    live: u64,
}

impl PacketSlab {
    pub fn insert(&mut self, p: Packet) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = p;
                i
            }
            None => {
                self.slots.push(p);
                (self.slots.len() - 1) as u32
            }
        }
    }

    pub fn get(&self, id: u32) -> &Packet {
        &self.slots[id as usize]
    }

    pub fn get_mut(&mut self, id: u32) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    pub fn remove(&mut self, id: u32) -> Packet {
        self.live -= 1;
        self.free.push(id);
        self.slots[id as usize]
    }

    /// Asks the CPU to start loading packet `id` (a hint; no effect on results): its one
    /// cache line.
    #[inline]
    pub fn prefetch(&self, id: u32) {
        if let Some(p) = self.slots.get(id as usize) {
            prefetch_lines(p, 1);
        }
    }

    /// Packets currently in the network.
    pub fn live(&self) -> u64 {
        self.live
    }
}
