//! The NF IR: types, instructions, text form, verifier, interpreter.
