fn main() {
    std::process::exit(sgscope::cli::run(std::env::args_os()));
}
