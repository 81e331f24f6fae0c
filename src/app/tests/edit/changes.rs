//! Inverses of changes, computed from the task before and after.

use crate::api::*;
use crate::app::edit::changes::*;
use crate::app::tests::task;

/// The due date's wire name, from the field table.
const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

#[test]
fn the_inverse_of_a_tag_edit_is_computed_against_the_old_list() {
    let b = task(1); // tags a, b
    let mut a = b.clone();
    a.tags = vec!["b".into(), "c".into()].into(); // +c -a
    let inv = inverse(
        &[Change::Tags {
            add: vec!["c".into()],
            remove: vec!["a".into()],
        }],
        &b,
        &a,
        None,
    )
    .unwrap();
    assert_eq!(
        inv,
        vec![Change::Tags {
            add: vec!["a".into()],
            remove: vec!["c".into()]
        }]
    );
    // Applied to what the task has by then (someone added `z`).
    assert_eq!(
        apply_tags(
            &["b".into(), "c".into(), "z".into()],
            &["a".into()],
            &["c".into()]
        ),
        vec!["b", "z", "a"]
    );
}

#[test]
fn inverses_send_back_the_value_the_service_answered_before() {
    let b = task(1);
    let mut a = b.clone();
    a.assigned_to = None;
    let inv = inverse(
        &[Change::Patch(TaskPatch {
            assigned_to: Field::Clear,
            ..Default::default()
        })],
        &b,
        &a,
        None,
    )
    .unwrap();
    assert_eq!(
        inv[0],
        Change::Patch(TaskPatch {
            assigned_to: Field::Set("u-me".into()),
            ..Default::default()
        })
    );
    // A due date that was empty is cleared again (explicit null).
    let inv = inverse(
        &[Change::Patch(TaskPatch {
            complete_by: Field::Set("2026-12-01T23:59:59Z".into()),
            ..Default::default()
        })],
        &b,
        &a,
        None,
    )
    .unwrap();
    match &inv[0] {
        Change::Patch(p) => assert_eq!(p.to_json(), serde_json::json!({DUE: null})),
        other => panic!("{other:?}"),
    }
    // Accepting a draft has no inverse in the API.
    let mut draft = b.clone();
    draft.draft = true;
    let err = inverse(
        &[Change::Patch(TaskPatch {
            draft: Some(false),
            ..Default::default()
        })],
        &draft,
        &b,
        None,
    )
    .unwrap_err();
    assert!(err.contains("cannot be undone"), "{err}");
}

#[test]
fn removing_a_link_is_undone_by_adding_it_back_with_its_role_and_checks() {
    let b = task(1);
    let review = "11111111-1111-4111-8111-111111111111".to_string();
    let inv = inverse(
        &[Change::RemoveLink(LinkType::Review, review.clone())],
        &b,
        &b,
        None,
    )
    .unwrap();
    assert_eq!(
        inv,
        vec![
            Change::AddLinks(vec![(LinkType::Review, review.clone())]),
            Change::UpdateLink(
                LinkType::Review,
                review,
                LinkUpdate {
                    role: Some(LinkRole::Reference),
                    context: Some(Some(vec!["c1".into()])),
                }
            ),
        ]
    );
}

#[test]
fn sharing_is_given_back_entry_by_entry_over_the_current_state() {
    let before: SharingState = serde_json::from_value(serde_json::json!({
        "visibility": "private",
        "users": [{"id": "u-me", "access_level": "write"}],
        "teams": []
    }))
    .unwrap();
    let after: SharingState = serde_json::from_value(serde_json::json!({
        "visibility": "private",
        "users": [{"id": "u-me", "access_level": "write"}, {"id": "u-bob", "access_level": "read"}],
        "teams": [{"id": "t-1", "access_level": "read"}]
    }))
    .unwrap();
    let back = share_back(&before, &after);
    // Someone else added Carol meanwhile: she keeps her access.
    let mut now = after.clone();
    now.users.push(
        serde_json::from_value(serde_json::json!({"id": "u-carol", "access_level": "read"}))
            .unwrap(),
    );
    let u = share_update(&now, &back);
    let ids: Vec<&str> = u.users.iter().map(|x| x.user_id.as_str()).collect();
    assert_eq!(ids, vec!["u-me", "u-carol"]);
    assert!(u.teams.is_empty());
}

#[test]
fn a_task_changed_since_our_edit_is_named_with_what_moved() {
    let ours = task(1);
    let mut now = ours.clone();
    let status = [Change::Patch(TaskPatch {
        status: Some(Status::Completed),
        ..Default::default()
    })];
    assert_eq!(
        changed_since(&status, ours.updated_at.as_deref(), Some(&ours), &now),
        None
    );
    now.updated_at = Some("2026-11-02T10:00:00Z".into());
    now.status = Status::WaitingOnExternal;
    let why = changed_since(&status, ours.updated_at.as_deref(), Some(&ours), &now).unwrap();
    assert!(why.contains("status is now waiting"), "{why}");
    now.status = ours.status.clone();
    let why = changed_since(&status, ours.updated_at.as_deref(), Some(&ours), &now).unwrap();
    assert!(why.contains("updated on the service"), "{why}");
}
