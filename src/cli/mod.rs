//! The command line: argument parsing and the scriptable commands.

/// Entry point of the binary; returns the process exit code.
pub fn main() -> i32 {
    // Temporary: demo only, until the CLI lands.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sb = crate::sandbox::Sandbox::start(listener, Default::default())
            .await
            .unwrap();
        let client = crate::api::Client::new(crate::api::ClientConfig::new(
            sb.base_url(),
            crate::api::ApiKey::new(sb.keys[0].key.clone()),
        ))
        .unwrap();
        crate::app::run(
            client,
            Default::default(),
            crate::app::LaunchInfo { demo: true },
        )
        .await
        .unwrap()
    })
}
