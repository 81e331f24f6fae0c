//! How the forward-compatibility quirk tasks (`SandboxOptions::quirks`)
//! are rendered: fields of a newer API version, odd shapes, malformed
//! values. A leaf the store renders through; the tasks themselves are
//! seeded in `seed::fixtures::quirk_tasks`.

use serde_json::{json, Value};

/// Applies a forward-compatibility quirk to a rendered task.
pub(crate) fn apply_quirk(kind: u8, v: &mut Value) {
    match kind {
        1 => {
            v["status"] = json!("blocked");
            v["priority"] = json!("critical");
            v["visibility"] = json!("org");
            v["x_sla"] = json!({"tier": 2, "breach_at": null});
            v["creator"]["x_pronouns"] = json!("they/them");
            v["team"]["x_cost_centre"] = json!("CC-17");
            if let Some(a) = v["linked_items"].as_array_mut() {
                a.push(
                    json!({"type": "chat", "id": "7d3f9a52-0d1e-4c1b-9a0e-2f5b8c1d4e6f",
                    "display_name": "Escalation chat", "role": "owner", "context": null,
                    "is_output": false, "x_weight": 0.5}),
                );
            }
            if let Some(a) = v["involved_people"].as_array_mut() {
                a.push(
                    json!({"id": "0b8e4c1a-5f2d-4e3b-8a7c-6d9e1f2a3b4c", "name": "Audit Bot",
                    "email": "audit-bot@acme.test", "role": "auditor", "access_level": "admin"}),
                );
            }
        }
        2 => {
            v["assigned_agent"] = json!("legacy-agent-7");
            v["assigned_team"] = json!("Litigation");
            v["matter"] = json!({"id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "name": "Legacy matter",
                "client": {"name": "Contoso", "codes": [1, 2, {"deep": true}]}});
            v["input_files"] =
                json!(["scan-001.pdf", {"id": "f1", "name": "odd.bin", "meta": {"pages": 3}}, 42]);
            v["output_files"] = json!([{"name": "no-id.txt"}]);
        }
        4 => {
            v["title"] = json!(42);
            v["tags"] = json!("oops");
            v["involved_people"] = json!("nobody");
            v["created_at"] = json!(12345);
        }
        5 => {
            v["matter"] = json!("M-LEGACY-9");
            v["assigned_agent"] = json!([{"id": "agent-1"}, "second agent"]);
            v["input_files"] = json!({"primary": {"id": "x", "name": "nested.pdf"}});
            v["source_channel"] = json!("teams");
            // A number sent as text (#32 §13).
            if let Some(n) = v["task_number"].as_i64() {
                v["task_number"] = json!(n.to_string());
            }
        }
        _ => {}
    }
}

/// Applies a quirk to a listed comment (`index` in the task's comments):
/// the malformed task's second comment, and the first of the task with a
/// string matter, are not valid Comments.
pub(crate) fn apply_comment_quirk(task_quirk: u8, index: usize, v: &mut Value) {
    if (task_quirk == 4 && index == 1) || (task_quirk == 5 && index == 0) {
        v["content"] = json!(42);
        v["author"] = json!("nobody");
    }
}
