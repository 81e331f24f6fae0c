//! The demo's inbox, seeded (issue 46 §2): before the screen opens, the
//! demo's own store walks the demo sandbox once (it learns what there
//! is), then Bob does what a colleague does — mentions Alice, replies to
//! her comment, changes a task of hers, gives her one of his — and a
//! follow-up and a snooze of Alice's fall due; two more walks read it all
//! (each open task's comments are read within two walks). The draft is
//! the sandbox's own (#5, Alice's, linked from #3: no list gives a
//! draft), found by the first walk's link reads (`inbox::drafts`). Every
//! item is derived by the inbox itself from what the service answers:
//! the first inbox of the demo shows each reason as a real service would
//! bring it, and `◀ changed` where something changed. Only the demo's
//! store (in its temp folder) is written.

use crate::api::{
    ApiKey, Client, ClientConfig, Field, Priority, Status, Task, TaskPatch, TaskQuery,
};
use crate::inbox::{self, Me, Plan};
use crate::sandbox::Sandbox;
use crate::store::{self, Db, InboxMark, MarkKind};

/// The colleague whose doings fill the inbox.
const BOB: &str = "demo-bob-acme";

/// Seed the demo's inbox of the user of `alice` (the demo's key). An
/// error is only logged by the caller: the demo runs without it.
pub(super) async fn seed(
    sandbox: &Sandbox,
    alice: &Client,
    key_print: Option<&store::identity::KeyPrint>,
) -> Result<(), String> {
    let base = sandbox.base_url();
    let bob_key = sandbox
        .keys
        .iter()
        .find(|k| k.key == BOB)
        .ok_or("no colleague key")?;
    let bob = Client::new(ClientConfig::new(
        base.clone(),
        ApiKey::new(bob_key.key.clone()),
    ))?;
    let who = alice.me().await.map_err(|e| e.to_string())?;
    let bob_id = bob.me().await.map_err(|e| e.to_string())?.user_id;
    let dir = store::service_dir(&base, true);
    if let Some(print) = key_print {
        store::identity::remember(&dir, print, &who.user_id).map_err(|e| e.to_string())?;
    }
    let (mut db, _) = Db::open(&store::db_path(&dir, &who.user_id))?;
    db.set_owner(&who.user_id);
    let me = Me::of(&who);

    // Alice's open tasks that Bob sees too, and one of Bob's alone.
    let mine = list(
        alice,
        TaskQuery {
            assigned_to: Some(who.user_id.clone()),
            ..Default::default()
        },
    )
    .await?;
    // Tasks with no reminder of their own, so each row says one reason.
    let now = jiff::Timestamp::now();
    let quiet = |t: &Task| {
        t.status != Status::Completed
            && inbox::derive::reminder(&inbox::Snapshot::of(t, &me), now).is_none()
    };
    let mut open = Vec::new();
    for t in mine.into_iter().filter(|t| quiet(t)) {
        if open.len() == 5 {
            break;
        }
        if bob.get_task(&t.id).await.is_ok() {
            open.push(t);
        }
    }
    let [mention, reply, change, follow, snooze] = <[Task; 5]>::try_from(open)
        .map_err(|_| "fewer than five open tasks of the user's that the colleague sees")?;
    let given = list(
        &bob,
        TaskQuery {
            assigned_to: Some(bob_id),
            ..Default::default()
        },
    )
    .await?
    .into_iter()
    .find(|t| quiet(t) && t.creator.as_ref().is_none_or(|c| *c.id != *who.user_id))
    .ok_or("no open task of the colleague's")?;

    // Alice's comment, which Bob answers later.
    let hers = alice
        .add_comment(
            &reply.id,
            "Draft of the findings memo is up: anything missing?",
            &[],
        )
        .await
        .map_err(|e| e.to_string())?;
    // 1. The first walk learns what there is, as of the sandbox's seed
    // (its times are at most the top of the hour, never ahead): a minute
    // before it, so that what came since — the seeded draft, Bob's day —
    // is newer than the day's reminders this walk finds (they were only
    // above them while the seed set times ahead). Never on another local
    // day (a reminder is one per day): then it is now.
    let now = jiff::Timestamp::now();
    let top = now.as_second() - now.as_second().rem_euclid(3600);
    let learned = jiff::Timestamp::from_second(top - 60)
        .ok()
        .filter(|t| crate::domain::later::day_key(*t) == crate::domain::later::day_key(now))
        .unwrap_or(now);
    walk_at(alice, &mut db, &me, learned).await?;

    // 2. Bob's day.
    let err = |e: crate::api::ApiError| e.to_string();
    let text = format!(
        "@{} can you check the signed copy before Friday?",
        who.user_email.raw()
    );
    bob.add_comment(&mention.id, &text, &[])
        .await
        .map_err(err)?;
    bob.reply_to_comment(
        &reply.id,
        hers.id.as_str(),
        "Looks complete: I added the schedules.",
        &[],
    )
    .await
    .map_err(err)?;
    let priority = if change.priority == Priority::Urgent {
        Priority::High
    } else {
        Priority::Urgent
    };
    let status = if change.status == Status::WaitingOnExternal {
        Status::InProgress
    } else {
        Status::WaitingOnExternal
    };
    bob.patch_task(
        &change.id,
        &TaskPatch {
            priority: Some(priority),
            status: Some(status),
            ..Default::default()
        },
    )
    .await
    .map_err(err)?;
    bob.patch_task(
        &given.id,
        &TaskPatch {
            assigned_to: Field::Set(who.user_id.clone()),
            ..Default::default()
        },
    )
    .await
    .map_err(err)?;

    // 3. Alice's follow-up (set two days ago) and snooze (set yesterday)
    // come due now: they sort among Bob's news, above the reminders the
    // first walk found.
    let now = jiff::Timestamp::now().as_second();
    let mark = |t: &Task, kind, at, since| InboxMark {
        task_id: t.id.to_string(),
        kind,
        at,
        since,
        label: t.label(),
        title: t.title.raw().to_string(),
    };
    db.inbox_mark(&mark(&follow, MarkKind::FollowUp, now, now - 2 * 86_400))
        .map_err(|e| e.to_string())?;
    db.inbox_mark(&mark(&snooze, MarkKind::Snooze, now, now - 86_400))
        .map_err(|e| e.to_string())?;

    // 4. Two walks: every open task's comments are read within two.
    walk(alice, &mut db, &me).await?;
    walk(alice, &mut db, &me).await?;
    Ok(())
}

async fn walk(c: &Client, db: &mut Db, me: &Me) -> Result<(), String> {
    walk_at(c, db, me, jiff::Timestamp::now()).await
}

/// A walk as if at `now`.
async fn walk_at(c: &Client, db: &mut Db, me: &Me, now: jiff::Timestamp) -> Result<(), String> {
    inbox::cycle(c, db, me, &Plan::default(), now)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The tasks of a query, every page.
async fn list(c: &Client, q: TaskQuery) -> Result<Vec<Task>, String> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = c
            .list_tasks(&q, 100, cursor.as_deref())
            .await
            .map_err(|e| e.to_string())?;
        out.extend(page.items.iter().filter_map(|i| i.task().cloned()));
        match page.cursor {
            Some(next) if cursor.as_deref() != Some(&next) => cursor = Some(next),
            _ => return Ok(out),
        }
    }
}
