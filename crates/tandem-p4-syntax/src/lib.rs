//! P4-16 AST, lexer, parser and printer.
