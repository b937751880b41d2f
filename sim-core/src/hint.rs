//! Cache prefetch hints. They never change a result: a prefetch only starts loading a
//! cache line early, so simulations stay bit-identical whether or not a target has them
//! (on targets other than x86-64 they compile to nothing). The only `unsafe` in the
//! workspace: the lint allows it here and nowhere else.
#![allow(unsafe_code)]

/// Starts loading the first `lines` cache lines from `x` (hints, as [`prefetch`]). `T` may
/// be unsized (a `dyn` object behind a box: its data).
#[inline(always)]
pub fn prefetch_lines<T: ?Sized>(x: &T, lines: usize) {
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

/// Starts loading the cache line a `push` onto `v` would write (a hint; nothing when `v`
/// is full, as the push would move it).
#[inline(always)]
pub fn prefetch_spare<T>(v: &Vec<T>) {
    if v.len() < v.capacity() {
        prefetch_ptr(v.as_ptr().wrapping_add(v.len()).cast());
    }
}
