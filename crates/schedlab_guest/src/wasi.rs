//! The `wasi_snapshot_preview1` functions a TinyGo guest imports, made deterministic:
//! stdout and stderr become the plugin's log lines, the clock is the caller's virtual clock,
//! randomness comes from a seeded generator; everything else answers ENOSYS.

use crate::host::{arg, read_bytes, Ctx, HostFn, HostResult, LogSource, MAX_LOG_BYTES};
use crate::wasm::{Trap, ValType, Value};

const ESUCCESS: i32 = 0;
const EBADF: i32 = 8;
const EINVAL: i32 = 28;
/// "Function not supported": the answer of every function not emulated here.
pub(crate) const ENOSYS: i32 = 52;

fn errno(code: i32) -> HostResult {
    Ok(vec![Value::I32(code)])
}

fn write_u32(ctx: &mut Ctx, ptr: u32, v: u32) -> Result<(), Trap> {
    if ctx.memory.write(ptr, &v.to_le_bytes()) {
        Ok(())
    } else {
        Err(Trap::OutOfBoundsMemory)
    }
}

/// `fd_write(fd, iovs, iovs_len, nwritten) -> errno`: stdout and stderr only, split into lines.
fn fd_write(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let (fd, iovs, count, nwritten) = (arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3));
    if fd != 1 && fd != 2 {
        return errno(EBADF);
    }
    if count > 1024 {
        return errno(EINVAL);
    }
    let mut written = Vec::new();
    for i in 0..count {
        let at = iovs.wrapping_add(i.wrapping_mul(8));
        let iov = read_bytes(ctx, at, 8, "an iovec")?;
        let ptr = u32::from_le_bytes([iov[0], iov[1], iov[2], iov[3]]);
        let len = u32::from_le_bytes([iov[4], iov[5], iov[6], iov[7]]);
        if written.len() + len as usize > MAX_LOG_BYTES {
            return Err(Trap::Host("fd_write: more than 1 MiB in one write".into()));
        }
        written.extend_from_slice(&read_bytes(ctx, ptr, len, "fd_write data")?);
    }
    write_u32(ctx, nwritten, written.len() as u32)?;
    let state = &mut *ctx.data;
    let pending = &mut state.pending[fd as usize - 1];
    pending.extend_from_slice(&written);
    let source = if fd == 1 {
        LogSource::Stdout
    } else {
        LogSource::Stderr
    };
    let mut lines = Vec::new();
    while let Some(end) = pending.iter().position(|&c| c == b'\n') {
        let line: Vec<u8> = pending.drain(..=end).collect();
        lines.push(String::from_utf8_lossy(&line[..end]).into_owned());
    }
    if pending.len() > MAX_LOG_BYTES {
        lines.push(String::from_utf8_lossy(&std::mem::take(pending)).into_owned());
    }
    for text in lines {
        state.push_log(source, text);
    }
    errno(ESUCCESS)
}

/// The next number of a SplitMix64 sequence (a small, well-known seeded generator).
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn random_get(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let (buf, len) = (arg(args, 0), arg(args, 1));
    if ctx.memory.read(buf, len).is_none() {
        return Err(Trap::OutOfBoundsMemory);
    }
    let mut bytes = Vec::with_capacity(len.min(1 << 20) as usize);
    while bytes.len() < len as usize {
        bytes.extend_from_slice(&next_random(&mut ctx.data.random_state).to_le_bytes());
    }
    bytes.truncate(len as usize);
    if !ctx.memory.write(buf, &bytes) {
        return Err(Trap::OutOfBoundsMemory);
    }
    errno(ESUCCESS)
}

fn clock_time_get(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    // args: clock id (i32), precision (i64), result pointer (i32).
    let ptr = arg(args, 2);
    let now = ctx.data.clock_ns;
    if !ctx.memory.write(ptr, &now.to_le_bytes()) {
        return Err(Trap::OutOfBoundsMemory);
    }
    errno(ESUCCESS)
}

fn clock_res_get(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    if !ctx.memory.write(arg(args, 1), &1u64.to_le_bytes()) {
        return Err(Trap::OutOfBoundsMemory);
    }
    errno(ESUCCESS)
}

/// `args_sizes_get` / `environ_sizes_get` over a list of strings.
fn sizes_get(ctx: &mut Ctx, args: &[Value], list: &[String]) -> HostResult {
    let bytes: usize = list.iter().map(|s| s.len() + 1).sum();
    write_u32(ctx, arg(args, 0), list.len() as u32)?;
    write_u32(ctx, arg(args, 1), bytes as u32)?;
    errno(ESUCCESS)
}

/// `args_get(argv, argv_buf)`: pointers, then NUL-terminated strings.
fn strings_get(ctx: &mut Ctx, args: &[Value], list: &[String]) -> HostResult {
    let (mut argv, mut buf) = (arg(args, 0), arg(args, 1));
    for s in list {
        write_u32(ctx, argv, buf)?;
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        if !ctx.memory.write(buf, &bytes) {
            return Err(Trap::OutOfBoundsMemory);
        }
        argv = argv.wrapping_add(4);
        buf = buf.wrapping_add(bytes.len() as u32);
    }
    errno(ESUCCESS)
}

/// The WASI function `name` with its parameter and result types, if emulated.
pub(crate) fn wasi_function(name: &str) -> Option<(HostFn, Vec<ValType>, Vec<ValType>)> {
    use ValType::{I32, I64};
    let (f, params, results): (HostFn, Vec<ValType>, Vec<ValType>) = match name {
        "fd_write" => (fd_write, vec![I32; 4], vec![I32]),
        "random_get" => (random_get, vec![I32; 2], vec![I32]),
        "clock_time_get" => (clock_time_get, vec![I32, I64, I32], vec![I32]),
        "clock_res_get" => (clock_res_get, vec![I32; 2], vec![I32]),
        "args_sizes_get" => (
            |c, a| sizes_get(c, a, &c.data.args.clone()),
            vec![I32; 2],
            vec![I32],
        ),
        "args_get" => (
            |c, a| strings_get(c, a, &c.data.args.clone()),
            vec![I32; 2],
            vec![I32],
        ),
        "environ_sizes_get" => (|c, a| sizes_get(c, a, &[]), vec![I32; 2], vec![I32]),
        "environ_get" => (|_, _| errno(ESUCCESS), vec![I32; 2], vec![I32]),
        "proc_exit" => (|_, a| Err(Trap::Exit(arg(a, 0) as i32)), vec![I32], vec![]),
        "sched_yield" => (|_, _| errno(ESUCCESS), vec![], vec![I32]),
        // No preopened directories: the answer that ends a guest's preopen scan.
        "fd_prestat_get" => (|_, _| errno(EBADF), vec![I32; 2], vec![I32]),
        "fd_prestat_dir_name" => (|_, _| errno(EINVAL), vec![I32; 3], vec![I32]),
        _ => return None,
    };
    Some((f, params, results))
}

/// The answer of an unemulated WASI function: ENOSYS when it returns one i32, zeros otherwise.
pub(crate) fn enosys_results(results: &[ValType]) -> Vec<Value> {
    if results == [ValType::I32] {
        return vec![Value::I32(ENOSYS)];
    }
    results
        .iter()
        .map(|t| match t {
            ValType::I64 => Value::I64(0),
            ValType::F32 => Value::F32(0.0),
            ValType::F64 => Value::F64(0.0),
            ValType::FuncRef => Value::FuncRef(None),
            ValType::ExternRef => Value::ExternRef(None),
            ValType::I32 => Value::I32(0),
        })
        .collect()
}
