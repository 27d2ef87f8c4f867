use super::*;

#[test]
fn data_header_round_trips_and_rejects_garbage() {
    let h = DataHeader {
        kind: Kind::Done,
        port: 7,
        id: 0xdead_beef,
        flags: flags::VIA_SERVER,
        ts_ns: 1 << 40,
    };
    let d = h.datagram(b"abc");
    assert_eq!(DataHeader::parse(&d), Some((h, &b"abc"[..])));
    assert!(DataHeader::parse(&d[..DATA_HEADER_LEN - 1]).is_none());
    let mut bad = d.clone();
    bad[3] = 99;
    assert!(DataHeader::parse(&bad).is_none());
    bad = d.clone();
    bad[0] = b'X';
    assert!(DataHeader::parse(&bad).is_none());
    assert!(DataHeader::parse(&[]).is_none());
}

#[test]
fn control_messages_split_and_reassemble() {
    let payload: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
    let ds = control_datagrams(0, 42, &payload);
    assert_eq!(ds.len(), 4);
    let mut r = Reassembler::default();
    let from = Path::new("/x");
    let mut got = None;
    // out of order, with a duplicate
    for i in [2, 0, 0, 3, 1] {
        let p = parse_control(&ds[i]).unwrap();
        assert_eq!((p.kind, p.id, p.parts), (0, 42, 4));
        got = r.push(from, &p);
    }
    assert_eq!(got, Some(payload));
    let one = control_datagrams(1, 7, b"");
    assert_eq!(one.len(), 1);
    assert_eq!(r.push(from, &parse_control(&one[0]).unwrap()), Some(vec![]));
    // part >= parts, zero parts, bad kind
    let mut bad = one[0].clone();
    bad[13] = 1;
    assert!(parse_control(&bad).is_none());
    bad = one[0].clone();
    bad[15] = 0;
    assert!(parse_control(&bad).is_none());
    bad = one[0].clone();
    bad[3] = 2;
    assert!(parse_control(&bad).is_none());
}

#[test]
fn control_ops_survive_the_wire() {
    let ops = vec![
        ControlOp::Insert {
            table: "I.t".into(),
            entry: TableEntry {
                matches: vec![
                    KeyMatch::Exact(u64::MAX),
                    KeyMatch::Lpm(0x0a00_0000, 8),
                    KeyMatch::Ternary(1, 3),
                    KeyMatch::Range(4, 9),
                    KeyMatch::Any,
                ],
                action: "hit".into(),
                args: vec![1, u64::MAX],
                priority: Some(-3),
            },
        },
        ControlOp::Modify {
            table: "I.t".into(),
            entry: TableEntry {
                matches: vec![KeyMatch::Exact(1)],
                action: "hit".into(),
                args: vec![],
                priority: None,
            },
        },
        ControlOp::Delete {
            table: "I.t".into(),
            matches: vec![KeyMatch::Exact(1)],
            priority: None,
        },
        ControlOp::SetDefault {
            table: "I.t".into(),
            action: "miss".into(),
            args: vec![5],
        },
        ControlOp::Clear {
            table: "I.t".into(),
        },
    ];
    let req = Request::Write {
        ops: ops.iter().map(WireOp::from).collect(),
    };
    let text = serde_json::to_vec(&req).unwrap();
    let Request::Write { ops: back } = serde_json::from_slice(&text).unwrap() else {
        panic!("not a write");
    };
    let back: Vec<ControlOp> = back.iter().map(ControlOp::from).collect();
    assert_eq!(back, ops);
    let mut stats = SwitchStats::default();
    stats.frames_in.insert(64, 3);
    stats.frames_out.insert(1, 2);
    for r in [
        Reply::Stats { stats },
        Reply::Ok,
        Reply::Value { value: u64::MAX },
    ] {
        let back: Reply = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }
    for f in [
        ControlFailure::Transient("x".into()),
        ControlFailure::Full { table: "t".into() },
        ControlFailure::Rejected("y".into()),
    ] {
        let r = Reply::Failed {
            failure: WireFailure::from(&f),
        };
        let r: Reply = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
        let Reply::Failed { failure } = r else {
            panic!()
        };
        assert_eq!(ControlFailure::from(failure), f);
    }
}

/// Socket errors name the socket (`OffloadError::Io { path }`), including the ones the OS
/// does not report: a path too long for `sun_path`, a file that is not a socket.
#[test]
fn socket_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("s".repeat(120));
    match bind_socket(&long) {
        Err(OffloadError::Io { path, source }) => {
            assert_eq!(path, long);
            assert_eq!(source.kind(), io::ErrorKind::InvalidInput);
        }
        other => panic!("{other:?}"),
    }
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let e = bind_socket(&file).unwrap_err();
    assert!(
        matches!(&e, OffloadError::Io { path, .. } if *path == file),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with("file: exists and is not a socket"),
        "{e}"
    );
    // A directory that is not a bundle: the error names the file it needed.
    let e = Bundle::load(dir.path()).unwrap_err();
    assert!(
        matches!(&e, OffloadError::Io { path, .. } if path.ends_with("plan.json")),
        "{e:?}"
    );
}
