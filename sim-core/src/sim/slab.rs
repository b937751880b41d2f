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

    /// Asks the CPU to start loading packet `id` (a hint; no effect on results).
    #[inline]
    pub fn prefetch(&self, id: u32) {
        if let Some(p) = self.slots.get(id as usize) {
            prefetch(p);
        }
    }

    /// Packets currently in the network.
    pub fn live(&self) -> u64 {
        self.live
    }
}

/// Starts loading the first `lines` cache lines from `x` (hints, as [`prefetch`]).
#[inline(always)]
pub fn prefetch_lines<T>(x: &T, lines: usize) {
    let p = (x as *const T).cast::<u8>();
    for i in 0..lines {
        prefetch_ptr(p.wrapping_add(64 * i));
    }
}

/// Starts loading the cache line holding address `p`; never dereferences it.
#[inline(always)]
fn prefetch_ptr(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Starts loading the cache line of `x` (a hint: nothing on targets without one).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults and does not read the value.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
