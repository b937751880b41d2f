fn main() {
    web_ui::start();
}
