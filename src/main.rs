//! `pbrain-wuzi`: the engine binary.

fn main() -> anyhow::Result<()> {
    Ok(())
}
