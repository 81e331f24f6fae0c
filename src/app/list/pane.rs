//! What the current task's pane shows and gives: zoomed or beside the
//! list (`:zoom`), its text as written or rendered (`m`, `:raw`), and its
//! number or id copied (`:copy`, `:copy id`).

use crate::app::state::{Effect, Level, State};

impl State {
    /// `:zoom`: the pane over the whole screen, or beside the list again.
    pub fn toggle_zoom(&mut self) -> Vec<Effect> {
        self.zoom = !self.zoom;
        vec![]
    }

    /// `m` / `:raw`: text as written, or rendered Markdown.
    pub fn toggle_raw(&mut self) -> Vec<Effect> {
        self.markdown_raw = !self.markdown_raw;
        self.say(
            Level::Info,
            if self.markdown_raw {
                "text as written (m again: rendered)"
            } else {
                "text rendered (m again: as written)"
            },
        );
        vec![]
    }

    /// `:copy` (the task's number) or `:copy id` (its uuid). The loop
    /// copies only what an id can be (`tui/clipboard.rs`).
    pub fn copy_current(&mut self, id: bool) -> Result<Vec<Effect>, String> {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        let text = if id {
            t.id.as_str().to_string()
        } else {
            t.display_id.raw().to_string()
        };
        Ok(vec![Effect::Copy(text)])
    }
}
