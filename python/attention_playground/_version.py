__version__ = "0.1.0"  # the crate's (Cargo.toml); ./build.sh wheel checks they agree
