//! Any text: parsing never panics; whatever parses prints to text that parses to
//! the same print; checking/compiling never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = tandem_p4_syntax::parse_program(src) {
        let a = tandem_p4_syntax::print_program(&p);
        let q = tandem_p4_syntax::parse_program(&a).expect("printed program must parse");
        assert_eq!(a, tandem_p4_syntax::print_program(&q));
        let _ = tandem_switch::Switch::from_program(&p);
    }
});
