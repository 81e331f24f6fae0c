//! What the state does for `numbers` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::state::{ApiRequest, Effect, Focus, Level, Reply, State};
use crate::store::worker::{FoundNumber, StoreCmd};
use crate::store::{Numbered, StoredDetail};

impl State {
    /// A loaded task by its number (`#12` or `12`).
    pub fn task_by_number(&self, arg: &str) -> Option<&Task> {
        let n = arg.trim().trim_start_matches('#');
        self.list.items.iter().filter_map(|i| i.task()).find(|t| {
            t.display_id.raw() == format!("#{n}")
                || t.task_number.map(|x| x.to_string()).as_deref() == Some(n)
        })
    }

    /// `:open #N` or `:open UUID`: a row, what is known of the number,
    /// else the service.
    pub fn open_by_ref(&mut self, arg: &str) -> Result<Vec<Effect>, String> {
        let arg = arg.trim();
        if uuid::Uuid::parse_str(arg).is_ok() {
            let fx = self.jump_to(arg.to_string(), None);
            self.focus = Focus::Detail;
            return Ok(fx);
        }
        let number: i64 = arg
            .trim_start_matches('#')
            .parse()
            .map_err(|_| format!("{arg:?}: use #1234 or a task uuid"))?;
        Ok(match self.task_by_number(arg).cloned() {
            Some(t) => {
                self.say(Level::Info, format!("opened {}", t.label()));
                let fx = self.jump_to(t.id.as_str().to_string(), Some(t));
                self.focus = Focus::Detail;
                fx
            }
            None => self.open_number(number),
        })
    }

    /// `:parent`: the current subtask's parent, opened.
    pub fn open_parent(&mut self) -> Result<Vec<Effect>, String> {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        let parent = t.parent_id().ok_or(format!(
            "{} is not a subtask (the service names no parent)",
            t.label()
        ))?;
        let fx = self.jump_to(parent, None);
        self.focus = Focus::Detail;
        Ok(fx)
    }

    /// The rows an answer carried go into the number index.
    pub(crate) fn index_answer(&mut self, result: &Result<Reply, ApiError>) {
        if !self.local.on {
            return;
        }
        let rows: Vec<Numbered> = match result {
            Ok(Reply::Page(p)) => p
                .items
                .iter()
                .filter_map(TaskItem::task)
                .filter_map(numbered)
                .collect(),
            Ok(Reply::Items(v)) => v
                .iter()
                .filter_map(TaskItem::task)
                .filter_map(numbered)
                .collect(),
            Ok(Reply::Task(t)) => numbered(t).into_iter().collect(),
            Ok(Reply::Found(_, seen)) => seen.clone(),
            _ => vec![],
        };
        if !rows.is_empty() {
            self.local.store(StoreCmd::PutNumbers(rows));
        }
    }

    /// `:open #N` of a task that is not a row of the list.
    pub(crate) fn open_number(&mut self, number: i64) -> Vec<Effect> {
        let placeholder = format!("#{number}");
        self.focus = Focus::Detail;
        if self
            .detail
            .as_ref()
            .is_some_and(|d| d.task_id == placeholder && d.error.is_none())
        {
            // Already being looked for: once is enough.
            return vec![];
        }
        // Navigate now: the detail shows that #N is being looked for, and
        // no action can land on the previously current task.
        let mut fx = self.jump_to(placeholder, None);
        if let Some(d) = self.detail.as_mut() {
            // Looking again after a failure: the old error goes.
            d.error = None;
        }
        self.say(Level::Info, format!("looking for #{number}…"));
        if let Some(row) = self.known_number(number) {
            fx.extend(self.open_numbered(row, None));
        } else if self.local.on {
            // The store answers at once (`on_stored_number`); the service
            // is searched only if it does not know the number.
            self.local.store(StoreCmd::FindNumber {
                number,
                first: true,
            });
        } else {
            fx.push(self.find_on_service(number));
        }
        fx
    }

    /// A task known in memory (an earlier view, a subtask, an answer)
    /// with that number.
    fn known_number(&self, number: i64) -> Option<Numbered> {
        // (A row of the list is looked for among the rows, before.)
        self.local
            .known
            .values()
            .filter_map(|k| k.copy())
            .find(|t| has_number(t, number))
            .and_then(numbered)
    }

    /// The number the detail is looking for, while nothing was found nor
    /// failed.
    pub(crate) fn number_waiting(&self) -> Option<i64> {
        let d = self.detail.as_ref().filter(|d| d.error.is_none())?;
        d.task_id.strip_prefix('#')?.parse().ok()
    }

    fn find_on_service(&mut self, number: i64) -> Effect {
        self.request(ApiRequest::FindByNumber { number, limit: 100 })
    }

    /// The store's answer to `FindNumber`: taken only while the detail
    /// still looks for that number (the user may have moved on).
    pub(crate) fn on_stored_number(
        &mut self,
        number: i64,
        first: bool,
        found: Option<Box<FoundNumber>>,
    ) -> Vec<Effect> {
        let placeholder = format!("#{number}");
        if !self
            .detail
            .as_ref()
            .is_some_and(|d| d.task_id == placeholder && d.error.is_none())
        {
            return vec![];
        }
        match found {
            Some(f) => {
                let FoundNumber { row, detail } = *f;
                self.open_numbered(row, Some(detail))
            }
            None if first && self.offline.is_none() => {
                let finding = format!("finding #{number}");
                if self.inflight.values().any(|(what, _)| *what == finding) {
                    return vec![];
                }
                vec![self.find_on_service(number)]
            }
            None => {
                if let Some(d) = &mut self.detail {
                    d.error = Some(format!(
                        "#{number} is not stored, and the service cannot be reached"
                    ));
                }
                vec![]
            }
        }
    }

    /// Open the task the index names for a number, by id: what is stored
    /// of it is shown at once, its tabs are asked together, and the
    /// service's answer for it is checked (`number_check`).
    fn open_numbered(&mut self, row: Numbered, stored: Option<StoredDetail>) -> Vec<Effect> {
        let Numbered {
            number,
            display_id,
            id,
            title,
        } = row;
        if let Some(d) = &stored {
            self.learn_stored(&id, d);
        }
        let mut fx = self.show(id.clone(), None);
        self.say(Level::Info, format!("opened #{number}"));
        if self.offline.is_some() {
            // Nothing can be checked: what is stored is all there is.
            return fx;
        }
        let gen = self.local.gen;
        let fresh = self
            .local
            .known
            .get(&id)
            .filter(|k| k.fresh("task", gen))
            .and_then(|_| self.known_copy(&id))
            .map(|t| has_number(t, number));
        match fresh {
            // Answered by the service this session, for this version.
            Some(true) => return fx,
            Some(false) => return self.look_again(number, &id, false),
            None => {}
        }
        if let Some(d) = self.detail.as_mut() {
            d.by_number = Some(ByNumber {
                number,
                label: display_id,
                title,
            });
        }
        let asked = fx.iter().any(|e| {
            matches!(e, Effect::Api { req, .. } if matches!(&**req, ApiRequest::GetTask { id: x } if *x == id))
        });
        if !asked {
            // Shown from what was stored: the task is read all the same
            // (its number is checked by it).
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx
    }

    /// The service answered for a task opened through the index: `None`
    /// when the answer goes on as usual; else the task is no longer that
    /// number (renumbered, or gone) and the service is searched for it.
    pub(crate) fn number_check(
        &mut self,
        id: &str,
        answer: Result<&Task, &ApiError>,
    ) -> Option<Vec<Effect>> {
        let d = self.detail.as_mut().filter(|d| d.task_id == id)?;
        let number = d.by_number.as_ref()?.number;
        if self.overlay.bound_task() == Some(id) {
            // A composer or the sharing editor is open on this task: the
            // detail stays under it (it never moves to `#N` from under
            // the popup); the answer goes on as usual (gone: said, and
            // the index forgets it) and the number is no longer checked.
            d.by_number = None;
            let renumbered = match answer {
                Ok(t) => !has_number(t, number),
                Err(ApiError::NotFound { .. }) => {
                    self.local.store(StoreCmd::ForgetNumber {
                        number,
                        id: id.to_string(),
                    });
                    true
                }
                Err(_) => false,
            };
            if renumbered {
                self.say(
                    Level::Info,
                    format!("#{number} no longer names this task; `:open #{number}` looks for it"),
                );
            }
            return None;
        }
        match answer {
            Ok(t) if has_number(t, number) => {
                d.by_number = None;
                None
            }
            Ok(_) => Some(self.look_again(number, id, false)),
            Err(ApiError::NotFound { .. }) => Some(self.look_again(number, id, true)),
            Err(_) => None,
        }
    }

    /// The index was wrong about `#number`: back to looking for it.
    fn look_again(&mut self, number: i64, id: &str, gone: bool) -> Vec<Effect> {
        if gone {
            self.local.store(StoreCmd::ForgetNumber {
                number,
                id: id.to_string(),
            });
        }
        let mut fx = self.show(format!("#{number}"), None);
        self.say(
            Level::Info,
            format!("#{number} no longer names the task stored for it; looking for #{number}…"),
        );
        fx.push(self.find_on_service(number));
        fx
    }

    /// The answer to `FindByNumber`.
    pub(crate) fn on_found(
        &mut self,
        ticket: u64,
        number: i64,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        let placeholder = format!("#{number}");
        let here = |s: &State| s.detail.as_ref().map(|d| d.task_id.as_str()) == Some(&placeholder);
        let e = match result {
            Ok(Reply::Found(Some(t), _)) => {
                if !here(self) {
                    // The user moved on meanwhile.
                    return vec![];
                }
                // The placeholder the user navigated to becomes the task
                // (a newer copy already known wins: `show` takes the row).
                let id = t.id.as_str().to_string();
                let task = if self.is_stale(&t, ticket) {
                    None
                } else {
                    self.note_version(&t, ticket);
                    Some(*t)
                };
                let fx = self.show(id, task);
                self.say(Level::Info, format!("opened #{number}"));
                return fx;
            }
            Ok(_) => not_listed(number),
            Err(e) => e,
        };
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == placeholder) {
            d.error = Some(e.to_string());
        }
        self.say(Level::Error, format!("finding #{number} failed: {e}"));
        vec![]
    }
}
