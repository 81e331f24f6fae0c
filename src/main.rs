fn main() {
    std::process::exit(taskdeck::cli::main());
}
