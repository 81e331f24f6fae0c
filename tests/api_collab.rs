//! The typed client against the sandbox over real HTTP: comments, the requester thread, links, sharing, files, layouts.

mod api_common;

use api_common::*;

#[tokio::test]
async fn comments_thread_and_authorship() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let before = c.list_comments(&t.id).await.unwrap();
    assert!(before.len() >= 3);

    let mine = c
        .add_comment(&t.id, "Looking at chk-221 now.", &[])
        .await
        .unwrap();
    assert_eq!(mine.parent_comment_id, None);
    assert_eq!(mine.author.id, me.user_id);
    let reply = c
        .reply_to_comment(&t.id, &mine.id, "Done.", &[])
        .await
        .unwrap();
    assert_eq!(reply.parent_comment_id.as_deref(), Some(mine.id.as_str()));
    let edited = c
        .edit_comment(&t.id, &mine.id, "Looking at chk-221 and chk-104.")
        .await
        .unwrap();
    assert_eq!(edited.content.raw(), "Looking at chk-221 and chk-104.");
    assert!(edited.edited());

    let theirs = before
        .iter()
        .find(|c| c.author.id != me.user_id)
        .expect("a comment by someone else");
    let e = c
        .edit_comment(&t.id, &theirs.id, "hijack")
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Forbidden { .. }), "{e:?}");

    let after = c.list_comments(&t.id).await.unwrap();
    assert_eq!(after.len(), before.len() + 2);
}

#[tokio::test]
async fn requester_thread_sent_draft_and_disabled() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let mailbox = find(&c, "Reply to Northwind re: NDA redlines").await;
    let m = c
        .reply_to_requester(&mailbox.id, "Clause 7 is acceptable.", &[])
        .await
        .unwrap();
    assert_eq!(m.delivery_status, Some(DeliveryStatus::Draft));
    let email = find(&c, "Confirm engagement letter with Contoso").await;
    let m = c
        .reply_to_requester(&email.id, "Confirmed.", &[])
        .await
        .unwrap();
    assert_eq!(m.delivery_status, Some(DeliveryStatus::Sent));

    let other = client_with(&sb, &no_features_key(&sb));
    let t = walk(&other, &TaskQuery::default(), 100).await;
    let id = t[0].id().unwrap().to_string();
    let e = other
        .reply_to_requester(&id, "hello", &[])
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::FeatureDisabled { .. }), "{e:?}");
}

#[tokio::test]
async fn links_add_update_remove() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let other = find(&c, "Confirm engagement letter with Contoso").await;

    let added = c
        .add_links(&t.id, &[LinkRef::new(&LinkType::Task, &other.id)])
        .await
        .unwrap();
    assert!(added.linked_items.iter().any(|l| l.id == other.id));

    let upd = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: Some(LinkRole::Subject),
                context: None,
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == other.id).unwrap();
    assert_eq!(l.role, Some(LinkRole::Subject));

    // Only review links take a context.
    let e = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: None,
                context: Some(Some(vec!["chk-1".into()])),
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::BadRequest { .. }), "{e:?}");

    let review = t
        .linked_items
        .iter()
        .find(|l| l.kind == LinkType::Review)
        .expect("a review link");
    let upd = c
        .update_link(
            &t.id,
            &LinkType::Review,
            &review.id,
            &LinkUpdate {
                role: None,
                context: Some(Some(vec!["chk-221".into()])),
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == review.id).unwrap();
    let ids: Vec<&str> = l
        .context
        .as_ref()
        .unwrap()
        .check_ids
        .iter()
        .map(|s| s.raw())
        .collect();
    assert_eq!(ids, vec!["chk-221"]);
    let upd = c
        .update_link(
            &t.id,
            &LinkType::Review,
            &review.id,
            &LinkUpdate {
                role: None,
                context: Some(None),
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == review.id).unwrap();
    assert!(l.context.as_ref().is_none_or(|c| c.check_ids.is_empty()));

    let removed = c
        .remove_link(&t.id, &LinkType::Task, &other.id)
        .await
        .unwrap();
    assert!(removed.linked_items.iter().all(|l| l.id != other.id));
    let e = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: Some(LinkRole::Output),
                context: None,
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn sharing_with_ambiguous_reference() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let current = c.get_sharing(&t.id).await.unwrap();

    let mut update = SharingUpdate::new(&current.visibility);
    for u in &current.users {
        update = update.user(&u.id, u.access_level.as_ref().unwrap_or(&AccessLevel::Read));
    }
    for tm in &current.teams {
        update = update.team(
            &tm.id,
            tm.access_level.as_ref().unwrap_or(&AccessLevel::Read),
        );
    }
    if !current.users.iter().any(|u| u.id == me.user_id) {
        update = update.user(&me.user_id, &AccessLevel::Write);
    }
    let ambiguous = update.clone().user("Sam Taylor", &AccessLevel::Read);
    let e = c.put_sharing(&t.id, &ambiguous).await.unwrap_err();
    let body = e.bad_request_body().expect("400 with a body");
    let candidates = body["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 2, "{body}");
    let pick = candidates[0]["id"].as_str().unwrap().to_string();

    let resolved = update.user(&pick, &AccessLevel::Read);
    let after = c.put_sharing(&t.id, &resolved).await.unwrap();
    assert!(after.users.iter().any(|u| u.id == pick));
    let again = c.get_sharing(&t.id).await.unwrap();
    assert_eq!(again.users.len(), after.users.len());
}

#[tokio::test]
async fn files_attach_and_detach() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let files: Value = reqwest::Client::new()
        .get(format!("{}/api/v1/files", sb.base_url()))
        .bearer_auth(&sb.keys[0].key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let fid = files[0]["id"].as_str().unwrap().to_string();
    let t = find(&c, "Confirm engagement letter with Contoso").await;
    let has = |t: &Task| {
        serde_json::to_string(&t.input_files)
            .unwrap()
            .contains(&fid)
            || serde_json::to_string(&t.output_files)
                .unwrap()
                .contains(&fid)
    };
    let attached = c
        .attach_files(&t.id, std::slice::from_ref(&fid))
        .await
        .unwrap();
    assert!(has(&attached));
    let detached = c.detach_file(&t.id, &fid).await.unwrap();
    assert!(!has(&detached));
}

#[tokio::test]
async fn layout_validation() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let (res, raw) = c
        .validate_layout(&json!({"type": "page", "blocks": [{"type": "heading", "levl": 9}]}))
        .await
        .unwrap();
    assert!(!res.valid);
    assert!(!res.errors.is_empty());
    assert!(res.warnings.iter().any(|w| w.code.raw() == "unknown_field"));
    assert_eq!(raw["valid"], json!(false));

    let many: Vec<Value> = (0..80).map(|_| json!({"type": "nope"})).collect();
    let (res, _) = c
        .validate_layout(&json!({"type": "report", "blocks": many}))
        .await
        .unwrap();
    assert_eq!(res.errors.len(), 50);
    assert!(res.omitted_errors > 0);

    let other = client_with(&sb, &no_features_key(&sb));
    let e = other
        .validate_layout(&json!({"blocks": []}))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::FeatureDisabled {
            feature: "Visual Builder"
        }
    );
}
