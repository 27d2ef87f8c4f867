//! Rust mirror of `nfapi/include/tandem/abi.hh` (ABI version [`crate::nfapi::ABI_VERSION`]).

use std::ffi::c_char;

#[repr(C)]
pub(crate) struct RawPkt {
    pub data: *mut u8,
    pub len: u32,
    pub in_port: u32,
    pub now_ns: u64,
    pub out_port: i32,
    pub reserved: u32,
}

pub(crate) const CFG_INT: u32 = 0;
pub(crate) const CFG_FLOAT: u32 = 1;
pub(crate) const CFG_STRING: u32 = 2;
pub(crate) const CFG_BOOL: u32 = 3;

#[repr(C)]
pub(crate) struct CfgItem {
    pub key: *const c_char,
    pub kind: u32,
    pub i: i64,
    pub f: f64,
    pub s: *const c_char,
}

#[repr(C)]
pub(crate) struct RawCfg {
    pub file: *const c_char,
    pub items: *const CfgItem,
    pub n_items: usize,
}

pub(crate) type AbiVersionFn = unsafe extern "C" fn() -> u32;
pub(crate) type NameFn = unsafe extern "C" fn() -> *const c_char;
pub(crate) type TimerIntervalFn = unsafe extern "C" fn() -> u64;
pub(crate) type CreateFn =
    unsafe extern "C" fn(*const RawCfg, *mut c_char, usize) -> *mut std::ffi::c_void;
pub(crate) type DestroyFn = unsafe extern "C" fn(*mut std::ffi::c_void);
pub(crate) type ProcessFn =
    unsafe extern "C" fn(*mut std::ffi::c_void, *mut RawPkt, *mut c_char, usize) -> i32;
pub(crate) type TimerFn = unsafe extern "C" fn(*mut std::ffi::c_void, u64);
pub(crate) type DumpFn =
    unsafe extern "C" fn(*mut std::ffi::c_void, u64, *mut c_char, usize) -> usize;
