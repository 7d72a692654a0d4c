fn main() {
    std::process::exit(sgscope::cli::run());
}
