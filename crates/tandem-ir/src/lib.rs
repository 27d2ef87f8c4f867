//! The NF IR.
mod entity;
mod header;
mod inst;
mod module;
mod parse;
mod print;
mod state;
mod types;
pub mod verify;

pub use entity::{Arena, Block, EntityRef, FileId, Inst, StateId, Value};
pub use header::{Header, HeaderField, Meta};
pub use inst::{BinOp, BlockCall, CastOp, Effect, InstKind, IntCC, SourceLoc};
pub use module::{BlockData, FuncBuilder, Function, InstData, Module, ValueData, ValueDef};
pub use parse::{parse_module, ParseError};
pub use print::{print_inst, print_layout, print_module};
pub use state::{Layout, LayoutField, StateKind, StateObject};
pub use types::Type;
pub use verify::{verify_module, ErrorLocation, VerifyError, VerifyErrors};
pub mod interp;
pub use interp::{
    Action, DumpEntry, DumpFormat, InterpError, InterpOptions, Interpreter, OpaqueHandler, Outcome,
    Packet, StateDump, StateStore, StoreError,
};
