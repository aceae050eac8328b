// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The local chain's ERC-721 test token. The owner (the deployer) mints any token id.
contract CuepointPass is ERC721, Ownable {
    constructor() ERC721("Cuepoint Backstage Pass", "CUEPASS") Ownable(msg.sender) {}

    function mint(address to, uint256 tokenId) external onlyOwner {
        _safeMint(to, tokenId);
    }
}
