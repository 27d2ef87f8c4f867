//! Sizes, alignments and field offsets of LLVM types under the x86-64 SysV data layout (the
//! layout clang uses for the analysis build on this host).

use llvm_ir::types::{NamedStructDef, Types};
use llvm_ir::{Type, TypeRef};

/// `(size, align)` in bytes, or `None` for types without a memory layout (void, functions,
/// opaque structs).
pub fn size_align(types: &Types, ty: &TypeRef) -> Option<(u64, u64)> {
    match ty.as_ref() {
        Type::IntegerType { bits } => {
            let bytes = u64::from(bits.div_ceil(8)).next_power_of_two();
            Some((bytes, bytes.min(16)))
        }
        Type::PointerType { .. } => Some((8, 8)),
        Type::FPType(fp) => {
            use llvm_ir::types::FPType;
            let b = match fp {
                FPType::Half | FPType::BFloat => 2,
                FPType::Single => 4,
                FPType::Double => 8,
                _ => 16,
            };
            Some((b, b))
        }
        Type::ArrayType {
            element_type,
            num_elements,
        } => {
            let (s, a) = size_align(types, element_type)?;
            Some((s * *num_elements as u64, a))
        }
        Type::VectorType {
            element_type,
            num_elements,
            ..
        } => {
            let (s, _) = size_align(types, element_type)?;
            let total = (s * *num_elements as u64).next_power_of_two();
            Some((total, total))
        }
        Type::StructType {
            element_types,
            is_packed,
        } => struct_layout(types, element_types, *is_packed).map(|l| (l.size, l.align)),
        Type::NamedStructType { name } => match types.named_struct_def(name)? {
            NamedStructDef::Defined(t) => size_align(types, t),
            NamedStructDef::Opaque => None,
        },
        _ => None,
    }
}

/// Bytes a load or store of `ty` touches (LLVM's store size): `ceil(bits / 8)` for integers
/// (an `i48` store writes 6 bytes, although an `i48` occupies 8 in memory), the size otherwise.
pub fn store_size(types: &Types, ty: &TypeRef) -> Option<u64> {
    match ty.as_ref() {
        Type::IntegerType { bits } => Some(u64::from(bits.div_ceil(8))),
        _ => size_align(types, ty).map(|(s, _)| s),
    }
}

pub struct StructLayout {
    pub offsets: Vec<u64>,
    pub size: u64,
    pub align: u64,
}

pub fn struct_layout(types: &Types, fields: &[TypeRef], packed: bool) -> Option<StructLayout> {
    let mut off = 0u64;
    let mut align = 1u64;
    let mut offsets = Vec::with_capacity(fields.len());
    for f in fields {
        let (s, a) = size_align(types, f)?;
        let a = if packed { 1 } else { a };
        off = off.div_ceil(a) * a;
        offsets.push(off);
        off += s;
        align = align.max(a);
    }
    let size = off.div_ceil(align) * align;
    Some(StructLayout {
        offsets,
        size,
        align,
    })
}

/// The fields of a struct type (named or literal) and whether it is packed.
pub fn struct_fields(types: &Types, ty: &TypeRef) -> Option<(Vec<TypeRef>, bool)> {
    match ty.as_ref() {
        Type::StructType {
            element_types,
            is_packed,
        } => Some((element_types.clone(), *is_packed)),
        Type::NamedStructType { name } => match types.named_struct_def(name)? {
            NamedStructDef::Defined(t) => struct_fields(types, t),
            NamedStructDef::Opaque => None,
        },
        _ => None,
    }
}

/// One step of a GEP after the first index: the byte offset of struct field `index` or of
/// array element `index` (`None` for a non-constant array index: see the caller), and the
/// type stepped into.
pub fn step_into(types: &Types, ty: &TypeRef, index: u64) -> Option<(u64, TypeRef)> {
    match ty.as_ref() {
        Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
            let (s, _) = size_align(types, element_type)?;
            Some((s * index, element_type.clone()))
        }
        _ => {
            let (fields, packed) = struct_fields(types, ty)?;
            let l = struct_layout(types, &fields, packed)?;
            let i = usize::try_from(index).ok()?;
            Some((*l.offsets.get(i)?, fields.get(i)?.clone()))
        }
    }
}
