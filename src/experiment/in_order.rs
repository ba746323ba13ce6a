//! Items worked on by several threads at once whose results are written in the order of the
//! items all the same: a games file whose order does not depend on which game ended first.
//!
//! Two things make that cheap. The items are *taken* in order (a shared counter, not a
//! divide-and-conquer split: a split hands the second half of the items to the second
//! thread at once, and then every one of its results waits for the whole first half), so a
//! finished result waits only for the few items begun before it and still being worked on.
//! And the results written are a prefix of the items: a run stopped half way has written
//! items `0..k` and a rerun that skips the items already written continues after them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Lines that arrive in any order, each with its place, and are written in the order of
/// their places.
pub struct InOrderLines<W: Write> {
    out: W,
    /// Finished places whose predecessors are not all in yet: the line, or `None` for a
    /// place that has no line (an item that failed and was left out).
    waiting: BTreeMap<usize, Option<String>>,
    /// The place of the next line to write.
    next: usize,
    /// The most places that ever waited at once.
    most_waiting: usize,
}

impl<W: Write> InOrderLines<W> {
    /// Lines written to `out`, the first at place 0.
    pub fn new(out: W) -> Self {
        Self {
            out,
            waiting: BTreeMap::new(),
            next: 0,
            most_waiting: 0,
        }
    }

    /// Takes the line of `place` (`None`: the place has none) and writes every line now
    /// due, each followed by a newline, then flushes.
    pub fn add(&mut self, place: usize, line: Option<String>) -> io::Result<()> {
        self.waiting.insert(place, line);
        self.most_waiting = self.most_waiting.max(self.waiting.len() - 1);
        while let Some(line) = self.waiting.remove(&self.next) {
            if let Some(line) = line {
                writeln!(self.out, "{line}")?;
            }
            self.next += 1;
        }
        self.out.flush()
    }

    /// Places finished but not yet written (their lines are lost if the run stops now).
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The most places that were ever finished and held back at once.
    pub fn most_waiting(&self) -> usize {
        self.most_waiting
    }

    /// The place of the next line to be written: every place before it is written.
    pub fn written(&self) -> usize {
        self.next
    }

    /// The writer, once every line is in.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Works on items `0..count` on `states.len()` threads (each with its own state, such as
/// an engine process or a table), taking the items in order, and hands each item's line
/// to `lines` in the order of the items. `work` returns the item's line, or `None` to
/// leave the item out. The first error, of `work` or of the writing, stops every thread
/// before its next item and is returned (items finished after the last written one are
/// lost, as they would be if the run were stopped). With no states nothing is worked on.
pub fn work_in_order<S, W, E>(
    states: Vec<S>,
    count: usize,
    work: impl Fn(&mut S, usize) -> Result<Option<String>, E> + Sync,
    lines: &Mutex<InOrderLines<W>>,
    write_error: impl Fn(io::Error) -> E + Sync,
) -> Result<(), E>
where
    S: Send,
    W: Write + Send,
    E: Send,
{
    let next_item = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let first_error: Mutex<Option<E>> = Mutex::new(None);
    let fail = |error: E| {
        stopped.store(true, Ordering::SeqCst);
        if let Ok(mut first) = first_error.lock() {
            first.get_or_insert(error);
        }
    };
    std::thread::scope(|scope| {
        for mut state in states {
            let (work, write_error, fail) = (&work, &write_error, &fail);
            let (next_item, stopped) = (&next_item, &stopped);
            scope.spawn(move || {
                while !stopped.load(Ordering::SeqCst) {
                    let item = next_item.fetch_add(1, Ordering::SeqCst);
                    if item >= count {
                        break;
                    }
                    let line = match work(&mut state, item) {
                        Ok(line) => line,
                        Err(error) => return fail(error),
                    };
                    // A poisoned lock means another thread panicked while writing: the
                    // scope re-raises that panic; this thread just stops.
                    let Ok(mut lines) = lines.lock() else { return };
                    if let Err(error) = lines.add(item, line) {
                        return fail(write_error(error));
                    }
                }
            });
        }
    });
    match first_error.into_inner() {
        Ok(Some(error)) => Err(error),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn text(lines: InOrderLines<Vec<u8>>) -> String {
        String::from_utf8(lines.into_inner()).expect("utf-8")
    }

    #[test]
    fn lines_given_out_of_order_are_written_in_order_and_a_missing_place_is_skipped() {
        let mut lines = InOrderLines::new(Vec::new());
        lines.add(2, Some("two".into())).unwrap();
        lines.add(1, None).unwrap();
        assert_eq!(lines.waiting(), 2);
        assert_eq!(lines.written(), 0);
        lines.add(0, Some("zero".into())).unwrap();
        assert_eq!(lines.waiting(), 0);
        assert_eq!(lines.written(), 3);
        lines.add(4, Some("four".into())).unwrap();
        assert_eq!(lines.most_waiting(), 2);
        assert_eq!(text(lines), "zero\ntwo\n");
    }

    /// Items of uneven length, worked on by 1 to 4 threads, come out in the same order.
    #[test]
    fn any_number_of_threads_writes_the_same_file() {
        let expected: String = (0..40).map(|item| format!("item {item}\n")).collect();
        for threads in 1..=4 {
            let lines = Mutex::new(InOrderLines::new(Vec::new()));
            work_in_order(
                vec![(); threads],
                40,
                |_, item| {
                    // Up to 0.9 ms, scrambled by a prime (7919) so that later items often
                    // end before earlier ones.
                    std::thread::sleep(Duration::from_micros((item as u64 * 7919) % 900));
                    Ok::<_, String>(Some(format!("item {item}")))
                },
                &lines,
                |error| error.to_string(),
            )
            .unwrap();
            let lines = lines.into_inner().unwrap();
            assert_eq!(text(lines), expected, "{threads} threads");
        }
    }

    /// Taken in order, a finished item waits only for the few begun before it; split in
    /// halves, as a parallel iterator splits, the second thread's 200 items would all wait
    /// for the first thread's 200. (The bound leaves room for a thread descheduled for
    /// tens of milliseconds on a busy machine.)
    #[test]
    fn few_results_wait_when_the_items_are_taken_in_order() {
        let lines = Mutex::new(InOrderLines::new(Vec::new()));
        work_in_order(
            vec![(); 2],
            400,
            |_, item| {
                std::thread::sleep(Duration::from_millis(1));
                Ok::<_, String>(Some(item.to_string()))
            },
            &lines,
            |error| error.to_string(),
        )
        .unwrap();
        let lines = lines.into_inner().unwrap();
        assert!(lines.most_waiting() < 100, "{}", lines.most_waiting());
        assert_eq!(lines.written(), 400);
    }

    /// The first failure stops the threads; what was written is a prefix of the items.
    #[test]
    fn an_error_stops_the_work_and_leaves_a_prefix_written() {
        let lines = Mutex::new(InOrderLines::new(Vec::new()));
        let outcome = work_in_order(
            vec![(); 3],
            1000,
            |_, item| {
                if item == 30 {
                    return Err(format!("item {item} failed"));
                }
                Ok(Some(item.to_string()))
            },
            &lines,
            |error| error.to_string(),
        );
        assert_eq!(outcome, Err("item 30 failed".to_string()));
        let lines = lines.into_inner().unwrap();
        assert_eq!(lines.written(), 30);
        let expected: String = (0..30).map(|item| format!("{item}\n")).collect();
        assert_eq!(text(lines), expected);
    }
}
