//! The reference-counted arena of proof steps that `alphabeta_proof` builds its proofs in.

use super::{ProofId, ProofStep};

/// The reference count of a free slot, so that a use after release shows in debug builds.
pub(super) const FREE_SLOT: u32 = u32::MAX;

/// The proof steps of a search in progress, in reference-counted slots.
///
/// Most proofs built during a search are abandoned (a successor that failed low, a choice
/// replaced by a better one, the lists dropped at a cutoff), so a slot is freed as soon as
/// nothing refers to its step and reused for the next step: the arena holds the proofs
/// being built along the current path, not every step the search ever made. A step's
/// count is the number of steps and entries of the reply lists in progress that refer to
/// it; a step just pushed has count 0 ("floating") until something adopts it.
pub(super) struct Arena<M, V> {
    pub(super) steps: Vec<ProofStep<M, V>>,
    /// How many steps and reply-list entries refer to each slot's step; [`FREE_SLOT`] for
    /// a free slot.
    pub(super) references: Vec<u32>,
    /// Free slots, reused before the arena grows; so `steps.len()` is the peak number of
    /// live steps.
    pub(super) free: Vec<ProofId>,
    /// The vectors of freed lists of replies, emptied, for the next lists: no allocation
    /// per position once the search has warmed up.
    pub(super) spare_lists: Vec<Vec<(M, ProofId)>>,
    /// Steps being freed: freeing a proof is iterative, since proofs can be as deep as
    /// the game.
    pub(super) freeing: Vec<ProofId>,
}

impl<M, V> Arena<M, V> {
    pub(super) fn new() -> Self {
        Arena {
            steps: Vec::new(),
            references: Vec::new(),
            free: Vec::new(),
            spare_lists: Vec::new(),
            freeing: Vec::new(),
        }
    }

    /// Stores a floating step. The references it holds to other steps must already be
    /// counted (by [`Arena::adopt`], or taken over from a list of replies in progress).
    pub(super) fn push(&mut self, step: ProofStep<M, V>) -> ProofId {
        match self.free.pop() {
            Some(id) => {
                self.steps[id.0] = step;
                self.references[id.0] = 0;
                id
            }
            None => {
                self.steps.push(step);
                self.references.push(0);
                ProofId(self.steps.len() - 1)
            }
        }
    }

    /// Counts one more reference to a live step.
    pub(super) fn adopt(&mut self, id: ProofId) {
        debug_assert_ne!(self.references[id.0], FREE_SLOT, "adopting a freed step");
        self.references[id.0] += 1;
    }

    /// Lets go of a floating id: frees its step unless something adopted it. An id must
    /// be released at most once (the two ids of a terminal [`Found`](super::Found) are one).
    pub(super) fn release(&mut self, id: ProofId) {
        debug_assert_ne!(self.references[id.0], FREE_SLOT, "releasing a freed step");
        if self.references[id.0] == 0 {
            self.free_from(id);
        }
    }

    /// Drops one counted reference, freeing the step when it was the last.
    pub(super) fn unreference(&mut self, id: ProofId) {
        debug_assert!(
            self.references[id.0] != 0 && self.references[id.0] != FREE_SLOT,
            "dropping a reference that was never counted"
        );
        self.references[id.0] -= 1;
        if self.references[id.0] == 0 {
            self.free_from(id);
        }
    }

    /// Frees an unreferenced step and, iteratively, every step only it referred to.
    fn free_from(&mut self, id: ProofId) {
        self.freeing.push(id);
        while let Some(id) = self.freeing.pop() {
            self.references[id.0] = FREE_SLOT;
            self.free.push(id);
            // An empty `Replies` does not allocate: the placeholder of a free slot.
            match std::mem::replace(&mut self.steps[id.0], ProofStep::Replies(Vec::new())) {
                ProofStep::Terminal(_) => {}
                ProofStep::Choice(_, next) => self.drop_reference_while_freeing(next),
                ProofStep::Replies(mut replies) => {
                    for &(_, reply) in &replies {
                        self.drop_reference_while_freeing(reply);
                    }
                    if replies.capacity() > 0 {
                        replies.clear();
                        self.spare_lists.push(replies);
                    }
                }
            }
        }
    }

    fn drop_reference_while_freeing(&mut self, id: ProofId) {
        debug_assert!(
            self.references[id.0] != 0 && self.references[id.0] != FREE_SLOT,
            "a freed step referred to a step that was not counted"
        );
        self.references[id.0] -= 1;
        if self.references[id.0] == 0 {
            self.freeing.push(id);
        }
    }

    /// An empty vector for a list of replies, reused if one is spare.
    pub(super) fn take_list(&mut self) -> Vec<(M, ProofId)> {
        self.spare_lists.pop().unwrap_or_default()
    }
}
