use crate::time::SimTime;

/// A resettable timer that schedules as few engine events as possible.
///
/// Re-arming later (every new ACK pushes the RTO out) schedules nothing: when the old
/// wake-up fires early, the owner sees `on_wake` return false and asks for a new event.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timer {
    deadline: Option<SimTime>,
    /// Earliest wake-up event already in the engine queue.
    scheduled: Option<SimTime>,
}

impl Timer {
    pub fn arm(&mut self, at: SimTime) {
        self.deadline = Some(at);
    }

    pub fn disarm(&mut self) {
        self.deadline = None;
    }

    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    /// The time of a wake-up event the owner must schedule, if none is due early enough.
    pub fn event_needed(&mut self) -> Option<SimTime> {
        let d = self.deadline?;
        if self.scheduled.is_none_or(|s| d < s) {
            self.scheduled = Some(d);
            return Some(d);
        }
        None
    }

    /// A wake-up event fired at `now`; true if the timer expired (it is then disarmed).
    pub fn on_wake(&mut self, now: SimTime) -> bool {
        if self.scheduled == Some(now) {
            self.scheduled = None;
        }
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rearming_later_needs_no_new_event_until_the_old_one_fires() {
        let mut t = Timer::default();
        t.arm(SimTime(10));
        assert_eq!(t.event_needed(), Some(SimTime(10)));
        t.arm(SimTime(20));
        assert_eq!(t.event_needed(), None);
        assert!(!t.on_wake(SimTime(10)));
        assert_eq!(t.event_needed(), Some(SimTime(20)));
        assert!(t.on_wake(SimTime(20)));
        assert!(!t.is_armed());
    }

    #[test]
    fn rearming_earlier_schedules_an_earlier_event() {
        let mut t = Timer::default();
        t.arm(SimTime(20));
        t.event_needed();
        t.arm(SimTime(5));
        assert_eq!(t.event_needed(), Some(SimTime(5)));
        assert!(t.on_wake(SimTime(5)));
        assert!(!t.on_wake(SimTime(20)));
    }
}
